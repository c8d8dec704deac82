/**
 * Autocomplete, decided once for every platform: which argument of which command completes from
 * what (tool names, job names, build and deployment ids), which tool the values belong to (the typed
 * `tool`, else the tool bound to the conversation), and which values match what the user typed. The
 * values come through a port ({@link SuggestionLister}); an adapter only renders the choices within
 * its own limits (e.g. 25 choices of at most 100 characters).
 */
import type { BindingStore } from './actions';
import type { AutocompleteSource } from './host';

/** What an argument can be completed from. */
export type SuggestionSource = 'tools' | 'jobs' | 'builds' | 'deployments';

/** Which source completes argument `key` of registry command `commandName`, if any. */
export function suggestionSource(commandName: string, key: string): SuggestionSource | undefined {
  if (key === 'tool') return 'tools';
  if (key === 'job') return 'jobs';
  if (key === 'id') {
    const group = commandName.split(' ')[0];
    if (group === 'build') return 'builds';
    if (group === 'deployment') return 'deployments';
  }
  return undefined;
}

/** The port that lists the values (see {@link toolListings} for the tool platform's). */
export interface SuggestionLister {
  /** The tools Deckhand can act for. */
  tools(): string[];
  /** A tool's jobs, builds or deployments, newest first where that matters. */
  list(source: Exclude<SuggestionSource, 'tools'>, tool: string): Promise<string[]>;
}

/**
 * The values of the tool platform: `tools` (the tools Deckhand can act for), a tool's jobs by name,
 * its builds and deployments `latest` first, then newest first.
 */
export function toolListings(source: AutocompleteSource, tools: () => string[]): SuggestionLister {
  return {
    tools,
    async list(kind, tool) {
      const client = source.forTool(tool);
      switch (kind) {
        case 'jobs':
          return (await client.jobs.list()).map((job) => job.name).sort();
        case 'builds': {
          const builds = await client.builds.list();
          const newest = [...builds].sort((a, b) => (b.start_time ?? '').localeCompare(a.start_time ?? ''));
          return ['latest', ...newest.map((build) => build.build_id)];
        }
        case 'deployments': {
          const deployments = await client.components.listDeployments();
          const newest = [...deployments].sort((a, b) => b.creation_time.localeCompare(a.creation_time));
          return ['latest', ...newest.map((deployment) => deployment.deploy_id)];
        }
      }
    },
  };
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
  lister: SuggestionLister;
  bindings: Pick<BindingStore, 'get'>;
  /** Lookup failures are logged here (and answered with no values). */
  onError?: (error: unknown, source: SuggestionSource) => void;
  /** How long a listing is reused (default 30 s). */
  ttlMs?: number;
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
    return suggestionSource(command, key) !== undefined;
  }

  /** The values that contain what the user typed (case-insensitive), in the lister's order. */
  async suggest(request: SuggestionRequest): Promise<string[]> {
    const source = suggestionSource(request.command, request.key);
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
