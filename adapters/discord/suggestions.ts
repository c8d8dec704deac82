/**
 * Autocomplete values from the platform: tool names, job names, build ids and deployment ids,
 * cached briefly per tool and time-boxed so the answer always beats Discord's 3-second deadline.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../src/config';
import type { AdapterServices } from '../../src/core/host';

/** What an option can be completed from. */
export type SuggestionSource = 'tools' | 'jobs' | 'builds' | 'deployments';

/** One autocomplete choice. */
export interface Suggestion {
  name: string;
  value: string;
}

/** Discord allows at most 25 choices, each name and value ≤ 100 characters. */
const MAX_CHOICES = 25;

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

/**
 * The tools Deckhand can act for: the sandbox's tools, or those with a client certificate in
 * `TOOLHOST_CERT_DIR`, a bot-wide deploy token, or configured maintainers.
 */
export function knownTools(config: Config, sandboxTools?: () => Iterable<string>): () => string[] {
  return () => {
    if (sandboxTools) return [...sandboxTools()].sort();
    const tools = new Set<string>();
    for (const entry of config.TOOLHOST_DEPLOY_TOKENS) tools.add(entry.slice(0, entry.indexOf('=')));
    for (const entry of config.TOOL_MAINTAINERS) tools.add(entry.slice(0, entry.indexOf('=')));
    const dir = config.TOOLHOST_CERT_DIR;
    if (dir && existsSync(dir)) {
      for (const name of readdirSync(dir)) if (existsSync(join(dir, name, 'client.crt'))) tools.add(name);
    }
    return [...tools].sort();
  };
}

/** Options of {@link Suggestions}. */
export interface SuggestionsOptions {
  services: Pick<AdapterServices, 'toolhost'>;
  tools: () => string[];
  logger: Logger;
  /** How long a listing is reused (default 30 s). */
  ttlMs?: number;
  /** How long to wait for the platform before answering with what is known (default 2 s). */
  timeoutMs?: number;
}

/** Completes option values from the platform, with a short cache. */
export class Suggestions {
  private readonly cache = new Map<string, { at: number; values: Promise<string[]> }>();
  private readonly ttlMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: SuggestionsOptions) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 2000;
  }

  /** Up to 25 choices from `source` that contain what the user typed. */
  async suggest(source: SuggestionSource, typed: string, context: { tool?: string }): Promise<Suggestion[]> {
    let values: string[];
    try {
      values = await this.withTimeout(this.values(source, context.tool));
    } catch (error) {
      this.options.logger.debug({ err: error, source }, 'autocomplete lookup failed');
      values = [];
    }
    const needle = typed.trim().toLowerCase();
    return values
      .filter((value) => value.toLowerCase().includes(needle))
      .slice(0, MAX_CHOICES)
      .map((value) => ({ name: value.slice(0, 100), value: value.slice(0, 100) }));
  }

  private values(source: SuggestionSource, tool: string | undefined): Promise<string[]> {
    if (source === 'tools') return Promise.resolve(this.options.tools());
    if (!tool) return Promise.resolve([]);
    const key = `${source}|${tool}`;
    const cached = this.cache.get(key);
    if (cached && Date.now() - cached.at < this.ttlMs) return cached.values;
    const values = this.fetch(source, tool);
    this.cache.set(key, { at: Date.now(), values });
    values.catch(() => this.cache.delete(key));
    return values;
  }

  private async fetch(source: Exclude<SuggestionSource, 'tools'>, tool: string): Promise<string[]> {
    const client = this.options.services.toolhost.forTool(tool);
    switch (source) {
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
