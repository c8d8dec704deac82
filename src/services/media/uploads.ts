/**
 * Local uploads, in two steps: ask for an upload server (its address changes per call, so it is
 * never hard-coded), then POST the file to it as a streaming multipart form with the key as the
 * `api_key` field and in the address's query.
 */
import { Readable } from 'node:stream';
import { type Dispatcher, request } from 'undici';
import { z } from 'zod';
import { DeckhandError, UnreachableError } from '../../core/errors';
import { EnvelopeSchema, MEDIA_SERVICE, mediaError, unreadable } from './envelope';
import { multipartBody, type StreamedFile } from './multipart';
import { type UploadedFile, UploadedFileSchema } from './schemas';
import { type MediaSession, parseResult } from './session';

/** Options of {@link UploadsApi}. */
export interface UploadOptions {
  /** Longest wait for the upload server's answer once the file is sent, in ms. Default 2 h. */
  uploadTimeoutMs?: number;
  /** Longest silence while reading the answer, in ms. Default 60 s. */
  bodyTimeoutMs?: number;
  /** Connection pool of the uploads (shared by every client of a {@link MediaService}). */
  dispatcher?: Dispatcher;
}

/** What {@link UploadsApi.send} reports while the file is sent. */
export type ProgressListener = (sentBytes: number) => void;

const ServerSchema = z.url();

/** `upload/server` and the multipart upload. */
export class UploadsApi {
  constructor(
    private readonly session: MediaSession,
    private readonly options: UploadOptions = {},
  ) {}

  /** A fresh upload server address (`https://xxx.dood.video/upload/01`). */
  server(): Promise<string> {
    return this.session.call({
      path: '/api/upload/server',
      what: 'media-api-call-upload-server',
      read: (e) => parseResult(ServerSchema, e.result, 'media-api-call-upload-server'),
    });
  }

  /**
   * Streams `file` to an upload server (`options.server`, or a fresh one) and returns the uploaded
   * file. The source is read only
   * as fast as the upload server takes it. A source that fails mid-way fails the upload with its own
   * error; the upload server's refusals are the usual media errors.
   */
  async send(
    file: StreamedFile,
    onProgress: ProgressListener = () => {},
    options: { server?: string } = {},
  ): Promise<UploadedFile> {
    const url = new URL(options.server ?? (await this.server()));
    // The docs append the bare key as the query (`…/upload/01?{key}`); the form field carries it too.
    url.search = `?${encodeURIComponent(this.session.apiKey)}`;
    let sourceError: unknown;
    file.stream.once('error', (error) => {
      sourceError ??= error;
    });
    let sent = 0;
    const { contentType, body } = multipartBody({ api_key: this.session.apiKey }, 'file', file, (bytes) => {
      sent = bytes;
      onProgress(bytes);
    });
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method: 'POST',
        headers: { 'content-type': contentType, accept: 'application/json' },
        body: Readable.from(body, { objectMode: false }),
        ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}),
        headersTimeout: this.options.uploadTimeoutMs ?? 2 * 3600_000,
        bodyTimeout: this.options.bodyTimeoutMs ?? 60_000,
      });
    } catch (error) {
      if (sourceError !== undefined) throw sourceFailure(file.name, sourceError, sent);
      const name = file.name;
      throw new UnreachableError(
        MEDIA_SERVICE,
        (say) => ({ message: say.t('media-api-upload-broke-off', name) }),
        {
          cause: new Error((error as Error).name),
        },
      );
    } finally {
      if (!file.stream.destroyed) file.stream.destroy();
    }
    const raw = await response.body.text();
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw response.statusCode >= 400
        ? mediaError(response.statusCode, undefined)
        : unreadable('media-api-call-upload');
    }
    const envelope = EnvelopeSchema.safeParse(json);
    if (!envelope.success) throw unreadable('media-api-call-upload');
    this.session.check(envelope.data, {});
    const items = Array.isArray(envelope.data.result) ? envelope.data.result : [];
    const first = items[0] as { status?: unknown } | undefined;
    if (!first) throw unreadable('media-api-call-upload');
    const status = Number(first.status ?? 200);
    if (status !== 200) throw mediaError(status, String(first.status), this.session.context());
    return parseResult(UploadedFileSchema, first, 'media-api-call-upload');
  }
}

/** The error for a platform download that failed while it was being uploaded. */
function sourceFailure(name: string, error: unknown, sent: number): Error {
  if (error instanceof DeckhandError) return error;
  return new UnreachableError(
    'chat platform',
    (say) => ({ message: say.t('media-api-download-broke-off', name, sent) }),
    { cause: new Error((error as Error)?.name ?? 'Error') },
  );
}
