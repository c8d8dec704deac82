/**
 * The source host's REST transport over the shared {@link HttpClient}: versioned `Accept` headers
 * (the migrations preview type where the seed requires it), `X-GitHub-Api-Version`, `User-Agent`,
 * token or Basic authentication, rate limits (every answer's `x-ratelimit-*` headers are remembered
 * per credential and resource; a used-up window is waited out when it resets soon, otherwise refused
 * before sending; 403/429 answers are retried after `retry-after` or the reset when that is soon),
 * retries of idempotent calls on 5xx, and `per_page`/`page` pagination.
 */
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { UpstreamError, withWords } from '../../core/errors';
import { type Translator, translator } from '../../i18n/translate';
import { HttpClient, type RawResponse, type RequestOptions } from '../http';
import { RateLimitedError, readSourcehostError } from './errors';

/** `Accept` of ordinary operations (the seed's v3 type). */
export const ACCEPT_V3 = 'application/vnd.github.v3+json';
/** `Accept` the migrations preview operations require. */
export const ACCEPT_MIGRATIONS_PREVIEW = 'application/vnd.github.wyandotte-preview+json';
/** The REST API version Deckhand is written against. */
export const API_VERSION = '2022-11-28';

/** How a call authenticates. */
export type SourcehostAuth =
  | { kind: 'none' }
  | { kind: 'token'; token: string }
  | { kind: 'basic'; username: string; password: string; otp?: string };

/** One call. */
export interface SourcehostCall extends Omit<RequestOptions, 'headers'> {
  auth: SourcehostAuth;
  /** `Accept` header; default {@link ACCEPT_V3}. */
  accept?: string;
}

/** Options of a {@link SourcehostTransport}. */
export interface SourcehostTransportOptions {
  /** REST base, e.g. `https://api.github.com`. */
  apiUrl: string;
  timeoutMs?: number | undefined;
  /** Longest wait for a rate limit before giving up with a {@link RateLimitedError}. Default 10 s. */
  maxWaitMs?: number | undefined;
  /** Retries of idempotent calls on 5xx and of rate-limited calls. Default 2. */
  retries?: number;
  /** How to wait (tests may record instead). */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

/** One resource's window as last reported. */
export interface RateWindow {
  limit: number;
  remaining: number;
  used: number;
  /** Unix seconds. */
  reset: number;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

function header(response: RawResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Calls the source host's REST API. */
export class SourcehostTransport {
  private readonly http: HttpClient;
  private readonly windows = new Map<string, RateWindow>();
  private readonly maxWaitMs: number;
  private readonly retries: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: SourcehostTransportOptions) {
    this.http = new HttpClient({
      service: 'sourcehost',
      baseUrl: options.apiUrl,
      retries: 0,
      timeoutMs: options.timeoutMs,
      headers: { 'user-agent': 'Deckhand', 'x-github-api-version': API_VERSION },
      readError: readSourcehostError,
    });
    this.maxWaitMs = options.maxWaitMs ?? 10_000;
    this.retries = options.retries ?? 2;
    this.sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)));
  }

  /** The window last reported for a credential and resource (`core`, `search`, …). */
  window(auth: SourcehostAuth, resource = 'core'): RateWindow | undefined {
    return this.windows.get(`${authKey(auth)}|${resource}`);
  }

  /** Sends a call and returns the answer as received, after the rate-limit and retry rules. */
  async send(method: Dispatcher.HttpMethod, path: string, call: SourcehostCall): Promise<RawResponse> {
    const counted = !path.startsWith('/rate_limit');
    if (counted) await this.waitForWindow(call.auth, path.startsWith('/search') ? 'search' : 'core');
    const { auth, accept, ...request } = call;
    const headers: Record<string, string> = { accept: accept ?? ACCEPT_V3, ...authHeaders(auth) };
    for (let attempt = 0; ; attempt++) {
      const response = await this.http.raw(method, path, { ...request, headers });
      this.remember(auth, response);
      const limited = this.rateLimit(response);
      if (limited) {
        if (limited.waitMs <= this.maxWaitMs && attempt < this.retries) {
          await this.sleep(limited.waitMs);
          continue;
        }
        throw new RateLimitedError(
          limited.kind,
          response.status,
          Date.now() + limited.waitMs,
          limited.resource,
        );
      }
      if (response.status >= 500 && IDEMPOTENT.has(method) && attempt < this.retries) {
        await this.sleep(250 * 2 ** attempt);
        continue;
      }
      return response;
    }
  }

  /** Sends a call and returns its JSON answer validated by `schema`; error statuses throw. */
  async json<T>(method: Dispatcher.HttpMethod, path: string, schema: z.ZodType<T>, call: SourcehostCall) {
    const response = await this.send(method, path, call);
    if (response.status >= 400) throw this.errorFor(response, call.auth);
    return parse(schema, response.text);
  }

  /** Sends a call that answers 204 (or any 2xx/3xx) without a body; error statuses throw. */
  async empty(method: Dispatcher.HttpMethod, path: string, call: SourcehostCall): Promise<RawResponse> {
    const response = await this.send(method, path, call);
    if (response.status >= 400) throw this.errorFor(response, call.auth);
    return response;
  }

  /**
   * Every item of a list operation, page by page (`per_page`, `page`) until a short page or
   * `maxPages`, or one page when `page` is given.
   */
  async list<T>(
    path: string,
    item: z.ZodType<T>,
    call: SourcehostCall & { perPage?: number; page?: number; maxPages?: number },
  ): Promise<T[]> {
    const { perPage = 100, page, maxPages = 10, ...rest } = call;
    const items: T[] = [];
    const first = page ?? 1;
    const last = page ?? first + maxPages - 1;
    for (let current = first; current <= last; current++) {
      const query = { ...rest.query, per_page: perPage, page: current };
      const batch = await this.json('GET', path, item.array(), { ...rest, query });
      items.push(...batch);
      if (batch.length < perPage) break;
    }
    return items;
  }

  /**
   * The {@link UpstreamError} of an error answer. A 401/403 (not a rate limit: those are handled
   * before) means the source host refused the credential: the hint says how to give a working one
   * (`/link source` for a user's token), not the generic "credentials for this tool".
   */
  errorFor(response: RawResponse, auth: SourcehostAuth): UpstreamError {
    const error = this.http.errorFor(response.status, response.text);
    if (response.status !== 401 && response.status !== 403) return error;
    const { status } = response;
    return withWords(
      new UpstreamError(error.service, error.status, error.message, authHint(ENGLISH, status, auth)),
      (say) => ({
        message: error.words?.(say).message ?? error.message,
        hint: authHint(say, status, auth),
      }),
    );
  }

  /** Closes the connection pool. */
  close(): Promise<void> {
    return this.http.close();
  }

  private async waitForWindow(auth: SourcehostAuth, resource: string): Promise<void> {
    const known = this.window(auth, resource);
    if (!known || known.remaining > 0) return;
    const waitMs = known.reset * 1000 - Date.now();
    if (waitMs <= 0) return;
    if (waitMs > this.maxWaitMs) throw new RateLimitedError('primary', 403, known.reset * 1000, resource);
    await this.sleep(waitMs);
  }

  private remember(auth: SourcehostAuth, response: RawResponse): void {
    const limit = header(response, 'x-ratelimit-limit');
    const remaining = header(response, 'x-ratelimit-remaining');
    const reset = header(response, 'x-ratelimit-reset');
    if (limit === undefined || remaining === undefined || reset === undefined) return;
    const resource = header(response, 'x-ratelimit-resource') ?? 'core';
    this.windows.set(`${authKey(auth)}|${resource}`, {
      limit: Number(limit),
      remaining: Number(remaining),
      used: Number(header(response, 'x-ratelimit-used') ?? Number(limit) - Number(remaining)),
      reset: Number(reset),
    });
  }

  /** For a 403/429 that is a rate limit: how long to wait, which kind, which resource. */
  private rateLimit(response: RawResponse) {
    if (response.status !== 403 && response.status !== 429) return undefined;
    const resource = header(response, 'x-ratelimit-resource') ?? 'core';
    const retryAfter = header(response, 'retry-after');
    const remaining = header(response, 'x-ratelimit-remaining');
    const secondary = /secondary rate limit/i.test(response.text);
    if (retryAfter !== undefined && Number.isFinite(Number(retryAfter))) {
      const kind = secondary || remaining !== '0' ? 'secondary' : 'primary';
      return { kind, waitMs: Number(retryAfter) * 1000, resource } as const;
    }
    if (remaining === '0') {
      const reset = Number(header(response, 'x-ratelimit-reset') ?? 0) * 1000;
      return { kind: 'primary', waitMs: Math.max(0, reset - Date.now()), resource } as const;
    }
    // A secondary limit without headers: wait at least a minute (the documented rule).
    if (secondary) return { kind: 'secondary', waitMs: 60_000, resource } as const;
    return undefined;
  }
}

/** What to do about a refused credential (401) or a missing permission (403). */
export function authHint(say: Translator, status: number, auth: SourcehostAuth): string {
  if (auth.kind === 'basic') return say.t('sourcehost-api-basic-refused-hint');
  if (status === 401) return say.t('sourcehost-api-token-refused-hint');
  return say.t('sourcehost-api-token-scope-hint');
}

/** The language of logs and of the errors' `message`. */
const ENGLISH = translator('en');

function authHeaders(auth: SourcehostAuth): Record<string, string> {
  if (auth.kind === 'token') {
    return { authorization: `Bearer ${auth.token}` };
  }
  if (auth.kind === 'basic') {
    const basic = Buffer.from(`${auth.username}:${auth.password}`).toString('base64');
    return { authorization: `Basic ${basic}`, ...(auth.otp ? { 'x-github-otp': auth.otp } : {}) };
  }
  return {};
}

function authKey(auth: SourcehostAuth): string {
  if (auth.kind === 'none') return 'anonymous';
  const material = auth.kind === 'token' ? auth.token : `${auth.username}:${auth.password}`;
  return createHash('sha256').update(material).digest('hex').slice(0, 16);
}

function parse<T>(schema: z.ZodType<T>, text: string): T {
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : undefined;
  } catch {
    value = undefined;
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new UpstreamError('sourcehost', 502, (say) => ({
      message: say.t('sourcehost-api-unreadable-answer'),
    }));
  }
  return result.data;
}
