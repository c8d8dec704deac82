/**
 * One account's connection to the media API, shared by the resource classes: adds the key to every
 * call, reads the envelope, and turns failures into errors a user can act on (see envelope.ts).
 * Rate limits (10 requests per second) are waited out by the HTTP layer's retries, which read the
 * envelope's status too (`bodyStatus`): nothing is retried here.
 */
import type { z } from 'zod';
import { UpstreamError } from '../../core/errors';
import type { MessageKey } from '../../i18n/translate';
import { AnswerError, type HttpClient } from '../http';
import {
  type Envelope,
  EnvelopeSchema,
  type ErrorContext,
  mediaError,
  statusOf,
  unreadable,
} from './envelope';

/** Options of a {@link MediaSession}. */
export interface MediaSessionOptions {
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
  what: MessageKey;
  /** Makes error messages name the file. */
  fileCode?: string;
  /**
   * Answers whose `msg` describes the action instead of saying "OK" (`urlupload/actions`): only
   * `status` is checked.
   */
  msgIsDescription?: boolean;
}

/** The per-account plumbing behind a {@link MediaClient}. */
export class MediaSession {
  constructor(
    private readonly http: HttpClient,
    private readonly key: string,
    private readonly options: MediaSessionOptions = {},
  ) {}

  /** The API key (for the upload, which is not a plain GET). */
  get apiKey(): string {
    return this.key;
  }

  /** What to tell a user whose key is refused. */
  get keyHint(): string | undefined {
    return this.options.keyHint;
  }

  /** Makes the call and returns what `read` makes of the envelope. */
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

  private async fetch(call: MediaCall<unknown>): Promise<Envelope> {
    try {
      return await this.http.json('GET', call.path, EnvelopeSchema, {
        query: { key: this.key, ...call.query },
        route: call.path,
      });
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      if (error instanceof AnswerError && error.kind === 'unreadable') throw unreadable(call.what);
      // The HTTP status is not documented: an error answered with 4xx/5xx means the same as in the
      // body. Only the host's own words (not the HTTP layer's "answered 500") are its `msg`.
      const said = error instanceof AnswerError ? error.said : undefined;
      throw mediaError(error.status, said, this.context(call.fileCode));
    }
  }
}

/** Parses `value` with `schema`, throwing the "does not understand" error on a mismatch. */
export function parseResult<S extends z.ZodType>(schema: S, value: unknown, what: MessageKey): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw unreadable(what);
  return parsed.data;
}
