/**
 * One tool's connection to the platform, shared by the five API areas of a client: builds paths,
 * applies the tool's way of authenticating (client certificate, or a deploy token that only two
 * operations accept), records warnings, parses NDJSON streams, and maps errors.
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { inEnglish, UpstreamError, withWords } from '../../core/errors';
import { upstreamWords } from '../../core/upstream-words';
import { type MessageKey, translator } from '../../i18n/translate';
import type { HttpClient, RequestOptions } from '../http';
import type { ServiceHealth } from './common-schemas';
import { certificateRequired, type ErrorMapper, looksLikeStreamError, toolhostSaid } from './errors';
import { apiHealth, outageNote } from './platform-health';
import type { WarningInbox } from './warnings';

/** The five API areas of the platform. */
export type ToolhostApi = 'builds' | 'components' | 'envvars' | 'jobs' | 'logs';

/** Path prefix of each area's `/v1` operations. */
export const API_PREFIX: Record<ToolhostApi, string> = {
  builds: '/builds/v1',
  components: '/components/v1',
  envvars: '/envvars/v1',
  jobs: '/jobs/v1',
  logs: '/logs/v1',
};

/**
 * How a client authenticates: with the tool's client certificate on the internal server (every
 * operation), or with a deploy token on the external server (deployment create and show only).
 */
export type ToolhostAuth = { mode: 'certificate' } | { mode: 'token'; token: string };

/** One tool-scoped operation. */
export interface ToolCall<T> {
  api: ToolhostApi;
  method: Dispatcher.HttpMethod;
  /** Path segments after `/tool/{tool}/`; each is URL-encoded. */
  path: readonly string[];
  /** The same path with placeholders (`builds/{id}`), for metrics. */
  route: string;
  /** Validates the answer. */
  schema: z.ZodType<T>;
  /** What the call does, in words (`list builds`), for the error a token-only tool gets. */
  action: MessageKey;
  /** True for the operations a deploy token may call (create and show a deployment). */
  tokenAllowed?: boolean;
  query?: RequestOptions['query'];
  body?: unknown;
  /** Turns some upstream errors into clearer ones (a 404 naming the thing). */
  onError?: ErrorMapper | undefined;
}

/** One tool-scoped NDJSON stream. */
export interface ToolStream<T> extends Omit<ToolCall<T>, 'method' | 'body'> {
  /** Aborting ends the stream quietly. */
  signal?: AbortSignal | undefined;
  /** True for streams that stay open (follow): the server may answer only once it has a line. */
  live?: boolean;
}

/** The per-tool plumbing behind a {@link ToolhostClient}; the API areas call through it. */
export class ToolhostSession {
  constructor(
    /** The tool every call is for. */
    readonly tool: string,
    /** How calls authenticate. */
    readonly auth: ToolhostAuth,
    private readonly http: HttpClient,
    private readonly inbox: WarningInbox,
  ) {}

  /** Makes a JSON call and returns the validated answer; its `messages.warning` go to the inbox. */
  async call<T>(call: ToolCall<T>): Promise<T> {
    const { path, options } = this.prepare(call);
    try {
      const result = await this.http.json(call.method, path, call.schema, options);
      this.inbox.add(warningsOf(result));
      return result;
    } catch (error) {
      throw await this.withOutageNote(this.mapError(error, call.onError), call.api);
    }
  }

  /**
   * A service-side failure (5xx) while the API's own health endpoint reports it unhealthy says so:
   * the user learns the platform is down, not that their tool is broken.
   */
  private async withOutageNote(error: unknown, api: ToolhostApi): Promise<unknown> {
    if (!(error instanceof UpstreamError) || error.status < 500) return error;
    const health = await apiHealth(this.http, api);
    const note = outageNote(health, ENGLISH);
    if (!note) return error;
    const words = error.words;
    return withWords(new UpstreamError(error.service, error.status, error.message, note), (say) => ({
      message: words?.(say).message ?? error.message,
      hint: outageNote(health, say),
    }));
  }

  /**
   * Streams NDJSON entries as they arrive. An error object as a line (the service cannot change the
   * status once streaming began) is thrown as an {@link UpstreamError} after the entries before it.
   */
  async *stream<T>(call: ToolStream<T>): AsyncGenerator<T, void, undefined> {
    const { path, options } = this.prepare({ ...call, method: 'GET' });
    const { signal } = call;
    try {
      const headersTimeoutMs = call.live ? 0 : undefined;
      // Every log stream is declared `text/plain` (one JSON object per line): builds-openapi.yaml
      // `logs`, jobs-openapi.yaml `get_logs`. Asking for JSON gets a strict server's 406.
      const headers = { accept: 'text/plain' };
      for await (const line of this.http.lines(path, { ...options, headers, signal, headersTimeoutMs })) {
        yield parseStreamLine(line, call.schema, this.http.service);
      }
    } catch (error) {
      if (signal?.aborted) return;
      throw this.mapError(error, call.onError);
    }
  }

  /** GETs an unauthenticated JSON endpoint (health) at an absolute path. */
  async health(path: string, schema: z.ZodType<ServiceHealth>): Promise<ServiceHealth> {
    try {
      return await this.http.json('GET', path, schema, { route: path });
    } catch (error) {
      // An unhealthy service answers 500/503 with the same body; report it rather than throw.
      if (error instanceof UpstreamError && error.status >= 500 && error.status !== 502) {
        return { status: 'ERROR', message: error.message };
      }
      throw error;
    }
  }

  /** GETs an unauthenticated text endpoint (Prometheus metrics) at an absolute path. */
  metrics(path: string): Promise<string> {
    return this.http.text('GET', path, { route: path, headers: { accept: 'text/plain, */*' } });
  }

  private prepare(call: Omit<ToolCall<unknown>, 'schema'>): { path: string; options: RequestOptions } {
    let query = call.query;
    if (this.auth.mode === 'token') {
      if (!call.tokenAllowed) throw certificateRequired(this.tool, call.action);
      query = { ...query, token: this.auth.token };
    }
    const prefix = `${API_PREFIX[call.api]}/tool/`;
    const path = prefix + [this.tool, ...call.path].map(encodeURIComponent).join('/');
    const route = `${prefix}{tool}${call.route ? `/${call.route}` : ''}`;
    const options: RequestOptions = { route };
    if (query) options.query = query;
    if (call.body !== undefined) options.body = call.body;
    return { path, options };
  }

  private mapError(error: unknown, onError: ErrorMapper | undefined): unknown {
    if (!(error instanceof UpstreamError)) return error;
    const mapped = onError?.(error);
    if (mapped) return mapped;
    if (this.auth.mode !== 'token') return error;
    // The service quotes a refused token in its message; a secret must never reach the chat.
    const token = this.auth.token;
    const unquoted = (text: string) => text.split(token).join('<token>');
    const message = unquoted(error.message);
    const tool = this.tool;
    if (error.status === 401) {
      return new UpstreamError(error.service, 401, (say) => ({
        message: say.t('toolhost-api-token-refused', tool, message),
        hint: say.t('toolhost-api-token-refused-hint'),
      }));
    }
    if (message === error.message) return error;
    const words = error.words;
    return new UpstreamError(
      error.service,
      error.status,
      words
        ? (say) => {
            const said = words(say);
            return { message: unquoted(said.message), hint: said.hint };
          }
        : message,
      error.hint,
    );
  }
}

/** The language of logs and of the errors' `message`. */
const ENGLISH = translator('en');

/** The `messages.warning` list of an answer, if it has one. */
function warningsOf(result: unknown): string[] {
  if (typeof result !== 'object' || result === null || !('messages' in result)) return [];
  const messages = (result as { messages?: { warning?: unknown } | null }).messages;
  const warning = messages?.warning;
  return Array.isArray(warning) ? warning.filter((w): w is string => typeof w === 'string') : [];
}

/** Parses one NDJSON line: an entry, or the in-stream error object (thrown). */
export function parseStreamLine<T>(line: string, schema: z.ZodType<T>, service: string): T {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    const start = line.slice(0, 200);
    throw new UpstreamError(service, 502, (say) => ({
      message: say.t('toolhost-api-stream-unreadable-line', start),
    }));
  }
  if (!looksLikeStreamError(value)) {
    const entry = schema.safeParse(value);
    if (entry.success) return entry.data;
  }
  const said = toolhostSaid(500, value);
  if (said !== undefined) {
    const english = typeof said === 'function' ? inEnglish(said).message : said;
    throw withWords(
      new UpstreamError(service, 500, english, ENGLISH.t('toolhost-api-stream-failed-hint')),
      (say) => ({
        message: typeof said === 'function' ? said(say).message : upstreamWords(said) || said,
        hint: say.t('toolhost-api-stream-failed-hint'),
      }),
    );
  }
  throw new UpstreamError(service, 502, (say) => ({
    message: say.t('toolhost-api-stream-unreadable-entry'),
  }));
}

/** A copy of `value` without its `undefined` members: a request sends only the fields that were set. */
export function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
