/**
 * Autocomplete, decided once for every platform: which argument of which command completes from
 * what (its schema says so: `.meta({ completes: … })`), which tool the values belong to (the typed
 * `tool`, else the tool bound to the conversation), and which values match what the user typed. The
 * values come through a port ({@link SuggestionLister}) that the feature owning them implements; an
 * adapter only renders the choices within its own limits (e.g. 25 choices of at most 100 characters).
 */
import type { BindingStore } from './actions';
import type { AnyCommand } from './command';
import { argInfo } from './schema-info';

/** The listing an argument completes from: `tools`, or one of a tool's listings the lister knows. */
export type SuggestionSource = string;

/** Which listing completes argument `key` of `command`, if any (the argument's schema declares it). */
export function suggestionSource(
  command: AnyCommand<unknown> | undefined,
  key: string,
): SuggestionSource | undefined {
  const schema = (command?.args.shape as Record<string, Parameters<typeof argInfo>[0]> | undefined)?.[key];
  return schema ? argInfo(schema).completes : undefined;
}

/** The port that lists the values. */
export interface SuggestionLister {
  /** The tools Deckhand can act for. */
  tools(): string[];
  /** One of a tool's listings by its name (newest first where that matters); none for a name it does not know. */
  list(source: SuggestionSource, tool: string): Promise<string[]>;
}

/** What the user is typing, as the adapter parsed it. */
export interface SuggestionRequest {
  /** Registry command name (`jobs show`). */
  command: string;
  /** The argument being typed. */
  key: string;
  /** What is typed so far. */
  typed: string;
  /** The `tool` argument, if already given. */
  tool?: string;
  /** Where the user types (its bound tool is used when no `tool` is given). */
  conversationId: string;
}

/** Options of {@link Suggestions}. */
export interface SuggestionsOptions {
  /** The commands by name (the registry). */
  commands: { get(name: string): AnyCommand<unknown> | undefined };
  lister: SuggestionLister;
  bindings: Pick<BindingStore, 'get'>;
  /** Lookup failures are logged here (and answered with no values). */
  onError?: (error: unknown, source: SuggestionSource) => void;
  /** How long a listing is reused (default 30 s). */
  ttlMs?: number | undefined;
  /** How long to wait for the listing before answering with nothing (default 2 s). */
  timeoutMs?: number;
}

/** Completes argument values, with a short cache and a time box. */
export class Suggestions {
  private readonly cache = new Map<string, { at: number; values: Promise<string[]> }>();
  private readonly ttlMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: SuggestionsOptions) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 2000;
  }

  /** True when argument `key` of `command` completes from somewhere. */
  completes(command: string, key: string): boolean {
    return this.sourceOf(command, key) !== undefined;
  }

  /** The values that contain what the user typed (case-insensitive), in the lister's order. */
  async suggest(request: SuggestionRequest): Promise<string[]> {
    const source = this.sourceOf(request.command, request.key);
    if (!source) return [];
    let values: string[];
    try {
      const tool = request.tool ?? (await this.options.bindings.get(request.conversationId));
      values = await this.withTimeout(this.values(source, tool));
    } catch (error) {
      this.options.onError?.(error, source);
      values = [];
    }
    const needle = request.typed.trim().toLowerCase();
    return values.filter((value) => value.toLowerCase().includes(needle));
  }

  private sourceOf(command: string, key: string): SuggestionSource | undefined {
    return suggestionSource(this.options.commands.get(command), key);
  }

  private values(source: SuggestionSource, tool: string | undefined): Promise<string[]> {
    if (source === 'tools') return Promise.resolve(this.options.lister.tools());
    if (!tool) return Promise.resolve([]);
    const key = `${source}|${tool}`;
    const cached = this.cache.get(key);
    if (cached && Date.now() - cached.at < this.ttlMs) return cached.values;
    const values = this.options.lister.list(source, tool);
    this.cache.set(key, { at: Date.now(), values });
    values.catch(() => this.cache.delete(key));
    return values;
  }

  private withTimeout<T>(promise: Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('autocomplete timed out')), this.timeoutMs);
      timer.unref();
      promise.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }
}
