/**
 * One account's connection to the media API, shared by the resource classes: adds the key to every
 * call, reads the envelope, waits and retries when the host rate-limits (10 requests per second),
 * and turns failures into errors a user can act on (see envelope.ts).
 */
import type { z } from 'zod';
import { UpstreamError } from '../../core/errors';
import type { HttpClient } from '../http';
import {
  type Envelope,
  EnvelopeSchema,
  type ErrorContext,
  isRateLimited,
  mediaError,
  statusOf,
  unreadable,
} from './envelope';

/** Options of a {@link MediaSession}. */
export interface MediaSessionOptions {
  /** Retries after a rate-limit answer. Default 4. */
  rateLimitRetries?: number;
  /** First wait after a rate-limit answer in ms (doubles each time). Default 200 (the docs ask ≥ 100). */
  rateLimitDelayMs?: number;
  /** What to tell a user whose key is refused. */
  keyHint?: string;
}

/** One GET call of the API. */
export interface MediaCall<T> {
  /** Path under the API base, e.g. `/api/file/info`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Validates and converts the envelope (usually its `result`). */
  read: (envelope: Envelope) => T;
  /** What the call does, for the message about an unreadable answer. */
  what: string;
  /** Makes error messages name the file. */
  fileCode?: string;
  /**
   * Answers whose `msg` describes the action instead of saying "OK" (`urlupload/actions`): only
   * `status` is checked.
   */
  msgIsDescription?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The per-account plumbing behind a {@link MediaClient}. */
export class MediaSession {
  private readonly retries: number;
  private readonly delayMs: number;

  constructor(
    private readonly http: HttpClient,
    private readonly key: string,
    private readonly options: MediaSessionOptions = {},
  ) {
    this.retries = options.rateLimitRetries ?? 4;
    this.delayMs = options.rateLimitDelayMs ?? 200;
  }

  /** The API key (for the upload, which is not a plain GET). */
  get apiKey(): string {
    return this.key;
  }

  /** What to tell a user whose key is refused. */
  get keyHint(): string | undefined {
    return this.options.keyHint;
  }

  /** Makes the call, waiting out rate limits, and returns what `read` makes of the envelope. */
  async call<T>(call: MediaCall<T>): Promise<T> {
    const envelope = await this.fetch(call);
    this.check(envelope, call);
    let value: T;
    try {
      value = call.read(envelope);
    } catch (error) {
      if (error instanceof Error && error.name === 'ZodError') throw unreadable(call.what);
      throw error;
    }
    return value;
  }

  /** Throws the error an envelope stands for, if any. */
  check(envelope: Envelope, call: Pick<MediaCall<unknown>, 'fileCode' | 'msgIsDescription'>): void {
    const status = statusOf(envelope);
    const ok = status === 200 && (call.msgIsDescription || (envelope.msg ?? 'OK').toUpperCase() === 'OK');
    if (!ok) throw mediaError(status, envelope.msg, this.context(call.fileCode));
  }

  /** The error context of a call (the file, and the key hint). */
  context(fileCode?: string): ErrorContext {
    return {
      ...(fileCode ? { fileCode } : {}),
      ...(this.options.keyHint ? { keyHint: this.options.keyHint } : {}),
    };
  }

  /** Waits before the next try after a rate-limit answer (`attempt` counts from 0). */
  async backOff(attempt: number): Promise<void> {
    await sleep(this.delayMs * 2 ** attempt);
  }

  /** How many times a rate-limited call is tried again. */
  get rateLimitRetries(): number {
    return this.retries;
  }

  private async fetch(call: MediaCall<unknown>): Promise<Envelope> {
    for (let attempt = 0; ; attempt++) {
      let envelope: Envelope;
      try {
        envelope = await this.http.json('GET', call.path, EnvelopeSchema, {
          query: { key: this.key, ...call.query },
          route: call.path,
        });
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        // The HTTP status is not documented: an error answered with 4xx/5xx means the same as in the body.
        if (error.status === 429 && attempt < this.retries) {
          await this.backOff(attempt);
          continue;
        }
        if (error.status === 502 && /does not understand/.test(error.message)) throw unreadable(call.what);
        // The HTTP layer's own wording ("The media service answered HTTP 500.") is not the host's `msg`.
        const said = error.message.startsWith('The media service') ? undefined : error.message;
        throw mediaError(error.status, said, this.context(call.fileCode));
      }
      if (isRateLimited(envelope) && attempt < this.retries) {
        await this.backOff(attempt);
        continue;
      }
      return envelope;
    }
  }
}

/** Parses `value` with `schema`, throwing the "does not understand" error on a mismatch. */
export function parseResult<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw unreadable(what);
  return parsed.data;
}
