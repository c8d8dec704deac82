/**
 * For APIs that answer HTTP 200 and put the real result code in the body (the media host's envelope,
 * `{"msg":"Too Many Requests","status":"429"}`, specs/media/README.md §1): an undici interceptor
 * that reads such an answer's body and, when its code is one worth retrying, fails the attempt with
 * a {@link BodyStatusError} carrying that code, so undici's RetryHandler (placed above it) retries it
 * exactly as it retries the same HTTP status — one retry policy, whichever way a service says it.
 *
 * Handler API: undici 7 `types/dispatcher.d.ts` (`DispatchHandler`: onResponseStart/Data/End/Error);
 * the RetryHandler retries an attempt that ends in `onResponseError` with an error whose
 * `statusCode` is in its `statusCodes` (undici 7 `lib/handler/retry-handler.js`,
 * `RetryHandler[kRetryHandlerDefaultRetry]`).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** Reads the result code an answer's body reports (undefined when it reports none). */
export type BodyStatusReader = (text: string) => number | undefined;

/** An attempt whose 200 answer reports a retryable code in its body. */
export class BodyStatusError extends Error {
  constructor(
    /** The code the body reports (what the retry policy decides on). */
    readonly statusCode: number,
    /** The answer's headers (a `Retry-After` among them is honoured). */
    readonly headers: IncomingHttpHeaders,
    /** The answer's body, for the service's own message once retries are exhausted. */
    readonly body: string,
  ) {
    super(`the answer's body reports status ${statusCode}`);
    this.name = 'BodyStatusError';
  }
}

/**
 * The interceptor: 200 answers are held until their body is read (they are small JSON envelopes);
 * one whose body reports a code in `retryable` fails its attempt with a {@link BodyStatusError},
 * any other is handed on unchanged. Other statuses pass straight through.
 */
export function bodyStatusInterceptor(
  read: BodyStatusReader,
  retryable: readonly number[],
): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) =>
    dispatch(options, new BodyStatusHandler(handler, read, retryable));
}

class BodyStatusHandler implements Dispatcher.DispatchHandler {
  private held:
    | { statusCode: number; headers: IncomingHttpHeaders; statusMessage?: string | undefined }
    | undefined;
  private chunks: Buffer[] = [];

  constructor(
    private readonly handler: Dispatcher.DispatchHandler,
    private readonly read: BodyStatusReader,
    private readonly retryable: readonly number[],
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.held = undefined;
    this.chunks = [];
    this.handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    socket: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>[3],
  ): void {
    this.handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    if (statusCode !== 200) {
      this.handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      return;
    }
    this.held = { statusCode, headers, statusMessage };
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.held) this.chunks.push(chunk);
    else this.handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    const held = this.held;
    if (!held) {
      this.handler.onResponseEnd?.(controller, trailers);
      return;
    }
    const body = Buffer.concat(this.chunks);
    const text = body.toString('utf8');
    const reported = this.read(text);
    if (reported !== undefined && this.retryable.includes(reported)) {
      this.handler.onResponseError?.(controller, new BodyStatusError(reported, held.headers, text));
      return;
    }
    this.handler.onResponseStart?.(controller, held.statusCode, held.headers, held.statusMessage);
    if (body.length > 0) this.handler.onResponseData?.(controller, body);
    this.handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.handler.onResponseError?.(controller, error);
  }
}
