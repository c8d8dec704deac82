import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import { createSecureContext } from 'node:tls';
import { Agent, type Dispatcher, RetryAgent, RetryHandler, request, errors as undiciErrors } from 'undici';
import type { z } from 'zod';
import { type CommandScope, currentCommandScope } from '../core/command-deadline';
import { inEnglish, type Said, UnreachableError, withWords } from '../core/errors';
import { readJson } from '../core/json';
import { upstreamWords } from '../core/upstream-words';
import { type Translator, translator } from '../i18n/translate';
import { getProcessLogger } from '../log';
import { upstreamDuration } from '../metrics';
import { CLIENT_IN_FLIGHT, Compartment, type ServiceCircuit, serviceBulkhead } from './bulkhead';
import { AnswerError } from './http-answer';
import { BodyStatusError, type BodyStatusReader, bodyStatusInterceptor } from './http-body-status';
import { serviceName, serviceNameFirst } from './service-names';

export { AnswerError, type AnswerKind } from './http-answer';

/**
 * Turns an error response body into the service's own message (each API has its own shape): its
 * text as the service said it, or catalog words where the client says it in Deckhand's words.
 */
export type ErrorMessageReader = (status: number, body: unknown) => Said | undefined;

/** Options for one {@link HttpClient}. */
export interface HttpClientOptions {
  /** Service code name, used in errors and metrics (`toolhost`, `sourcehost`, …). */
  service: string;
  /** Base URL; request paths are appended to it. */
  baseUrl: string;
  /** Per-request timeout for headers and body, in ms. Default 15 000. */
  timeoutMs?: number | undefined;
  /** Retries of idempotent requests on 5xx, 429 and connection errors. Default 2. */
  retries?: number | undefined;
  /** Retries on 429 (rate limiting), for a service that asks for patience. Default: `retries`. */
  rateLimitRetries?: number;
  /** First retry delay in ms (doubles each time; `Retry-After` wins). Default 250. */
  retryDelayMs?: number | undefined;
  /**
   * The longest a request waits for one `Retry-After` (ms). A longer one is not waited for: the
   * call fails at once saying how long the service asked to wait. Default: the timeout.
   */
  retryWaitBudgetMs?: number;
  /** TLS client certificate and key (PEM) for mTLS, and the CA to trust. */
  tls?: { cert?: string; key?: string; ca?: string };
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  readError?: ErrorMessageReader;
  /**
   * For a service that answers HTTP 200 with its real result code in the body: reads that code, so
   * a retryable one (429, 5xx) is retried like the same HTTP status (see http-body-status.ts).
   */
  bodyStatus?: BodyStatusReader;
}

/** One request. */
export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Route template for metrics, e.g. `/builds/v1/tool/{tool}/builds`. Defaults to the path. */
  route?: string;
  /** A URL-encoded form body (OAuth token endpoints), sent instead of `body`. */
  form?: Record<string, string>;
}

/** An answer as received, for APIs that answer in headers (redirects, rate limits, paging). */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** The language of logs and of the errors' `message`. */
const ENGLISH = translator('en');

/** Statuses an idempotent call is retried on. */
const RETRY_STATUSES = [429, 500, 502, 503, 504];

/** What undici's RetryHandler calls to decide on a retry (its `retry` option). */
type RetryDecision = NonNullable<ConstructorParameters<typeof RetryAgent>[1]>['retry'];

/**
 * undici's own retry decision (backoff, `Retry-After`, retryable codes and methods): a static
 * method of RetryHandler under a module-private symbol (undici 7 `lib/handler/retry-handler.js`,
 * `RetryHandler[kRetryHandlerDefaultRetry]`), looked up once so it can be wrapped, not rewritten.
 */
const undiciRetry = (() => {
  const handler = RetryHandler as unknown as Record<symbol, unknown>;
  const symbol = Object.getOwnPropertySymbols(RetryHandler).find((s) => typeof handler[s] === 'function');
  const decide = symbol ? handler[symbol] : undefined;
  if (typeof decide !== 'function') throw new Error("undici's RetryHandler has no default retry function");
  return decide as NonNullable<RetryDecision>;
})();

/**
 * `Retry-After` in ms from now: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when
 * absent or unreadable.
 */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** "45 seconds", "1 minute", "60 minutes": a wait in words, rounded up. */
function waitInWords(say: Translator, ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return say.t('http-wait-seconds', seconds);
  return say.t('http-wait-minutes', Math.ceil(seconds / 60));
}

/** True for a body that is an HTML page (a proxy's or load balancer's error page): never echoed. */
function isHtml(contentType: string | string[] | undefined, text: string): boolean {
  const type = (Array.isArray(contentType) ? contentType[0] : contentType) ?? '';
  return /\bhtml\b/i.test(type) || /^\s*<(!doctype|html|head|body|\?xml)?/i.test(text);
}

/**
 * The request's answer, or the signal's reason as soon as it aborts: undici lets an abort wait for a
 * connection being opened (up to its connect timeout). An answer arriving after that is discarded.
 */
function untilAborted<T extends { body: { dump(): Promise<void> } }>(
  sent: Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  if (signal.aborted) {
    sent.then((late) => late.body.dump()).catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      sent.then((late) => late.body.dump()).catch(() => undefined);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    sent.then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** An answer with its whole body read. */
interface Received {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * The one HTTP layer every service client uses, and the one owner of retries: undici with
 * keep-alive, timeouts, retries with backoff for idempotent calls only (undici's RetryAgent, which
 * honours `Retry-After`; a code reported in the body too, with `bodyStatus`), error bodies turned
 * into {@link AnswerError}s (UpstreamErrors) carrying the service's own message, and transport
 * failures into {@link UnreachableError}s.
 */
export class HttpClient {
  private readonly retrying: Dispatcher;
  private readonly plain: Dispatcher;
  private readonly timeoutMs: number;
  private readonly retryWaitBudgetMs: number;
  /** This client's own compartment (one tool's, for the tool platform), inside its service's. */
  private readonly compartment: Compartment;
  private readonly shared: { compartment: Compartment; circuit: ServiceCircuit };

  constructor(private readonly options: HttpClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.compartment = new Compartment(options.service, CLIENT_IN_FLIGHT);
    this.shared = serviceBulkhead(options.service, options.baseUrl);
    this.retryWaitBudgetMs = options.retryWaitBudgetMs ?? this.timeoutMs;
    const tls = options.tls;
    this.plain = new Agent({
      keepAliveTimeout: 10_000,
      // One TLS context for every connection of this client: building it (parsing the key and
      // certificates) per connection was a visible share of CPU in the ack-latency benchmark.
      ...(tls
        ? { connect: { secureContext: createSecureContext({ cert: tls.cert, key: tls.key, ca: tls.ca }) } }
        : {}),
    });
    const checked = options.bodyStatus
      ? this.plain.compose(bodyStatusInterceptor(options.bodyStatus, RETRY_STATUSES))
      : this.plain;
    const retries = options.retries ?? 2;
    this.retrying = new RetryAgent(checked, {
      maxRetries: Math.max(retries, options.rateLimitRetries ?? retries),
      minTimeout: options.retryDelayMs ?? 250,
      maxTimeout: Math.min(10_000, this.retryWaitBudgetMs),
      timeoutFactor: 2,
      methods: [...IDEMPOTENT] as Dispatcher.HttpMethod[],
      statusCodes: RETRY_STATUSES,
      // A `Retry-After` longer than the budget is not waited for (undici caps it at maxTimeout and
      // waits anyway, which made a reply take 2 × 10 s for `Retry-After: 3600`): the answer is
      // handed back at once and toError says how long the service asked to wait.
      retry: (error, context, callback) => {
        const { headers, statusCode } = error as { headers?: Record<string, string>; statusCode?: number };
        const wait = retryAfterMs(headers?.['retry-after']);
        if (wait !== undefined && wait > this.retryWaitBudgetMs) return callback(error);
        // Only rate limits get the extra retries of `rateLimitRetries` (undici counts from 1).
        if (statusCode !== 429 && context.state.counter > retries) return callback(error);
        return undiciRetry(error, context, callback);
      },
      // Hand back the last answer once retries are exhausted instead of a bare RequestRetryError,
      // so its body (the service's own message) reaches the user.
      throwOnError: false,
    });
  }

  /** The service's code name. */
  get service(): string {
    return this.options.service;
  }

  /** Sends a request and returns the parsed JSON body, validated by `schema`. */
  async json<T>(
    method: Dispatcher.HttpMethod,
    path: string,
    schema: z.ZodType<T>,
    options: RequestOptions = {},
  ): Promise<T> {
    const { statusCode, headers, text } = await this.receive(method, path, options);
    const parsed = readJson(text);
    if (statusCode >= 400) throw this.toError(statusCode, parsed ?? text, headers);
    const result = schema.safeParse(parsed);
    if (!result.success) {
      const service = this.options.service;
      throw new AnswerError(
        service,
        502,
        (say) => ({ message: say.t('http-unreadable-answer', service) }),
        undefined,
        'unreadable',
      );
    }
    return result.data;
  }

  /**
   * Sends a request and returns status, headers and body text without turning error statuses into
   * errors; {@link errorFor} makes the usual {@link AnswerError} from an error answer.
   */
  async raw(method: Dispatcher.HttpMethod, path: string, options: RequestOptions = {}): Promise<RawResponse> {
    const { statusCode, headers, text } = await this.receive(method, path, options);
    return { status: statusCode, headers, text };
  }

  /**
   * The {@link AnswerError} for an error answer, with the service's own message (`readError`);
   * pass the answer's headers so an HTML page is not echoed and a `Retry-After` is reported.
   */
  errorFor(
    status: number,
    text: string,
    headers: Record<string, string | string[] | undefined> = {},
  ): AnswerError {
    return this.toError(status, readJson(text) ?? text, headers);
  }

  /** Sends a request and returns the body as text (e.g. Prometheus metrics). */
  async text(method: Dispatcher.HttpMethod, path: string, options: RequestOptions = {}): Promise<string> {
    const { statusCode, headers, text } = await this.receive(method, path, options);
    if (statusCode >= 400) throw this.toError(statusCode, readJson(text) ?? text, headers);
    return text;
  }

  /**
   * Opens a streaming response and yields its lines as they arrive (NDJSON logs). No retries: a
   * stream is resumed by the caller, which knows where it left off. `signal` aborts it.
   * `headersTimeoutMs` (default: the client's timeout; 0 = none) is for follow-mode streams whose
   * server answers only once there is something to send.
   */
  async *lines(
    path: string,
    options: RequestOptions & {
      signal?: AbortSignal | undefined;
      headersTimeoutMs?: number | undefined;
    } = {},
  ): AsyncGenerator<string> {
    const { statusCode, headers, body } = await this.send('GET', path, options, {
      stream: true,
      signal: options.signal,
      headersTimeoutMs: options.headersTimeoutMs,
    });
    if (statusCode >= 400) {
      const text = await body.text();
      throw this.toError(statusCode, readJson(text) ?? text, headers);
    }
    let buffer = '';
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as Readable) {
        buffer += decoder.decode(chunk as Buffer, { stream: true });
        let newline = buffer.indexOf('\n');
        while (newline >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          // Lines already buffered in the last chunk must not outlive an abort.
          if (options.signal?.aborted) return;
          if (line.trim() !== '') yield line;
          newline = buffer.indexOf('\n');
        }
      }
    } catch (error) {
      if (options.signal?.aborted) return;
      const service = this.options.service;
      throw new UnreachableError(service, (say) => ({ message: say.t('http-stream-broke-off', service) }), {
        cause: error,
      });
    }
    buffer += decoder.decode();
    if (buffer.trim() !== '' && !options.signal?.aborted) yield buffer;
  }

  /** Closes the connection pools. */
  async close(): Promise<void> {
    await this.retrying.close();
  }

  /**
   * Sends a request and reads its whole body. A body broken off before its end (the connection
   * closed before `Content-Length` bytes arrived) is the upstream's failure, not ours: an
   * idempotent call is sent again (undici's RetryAgent first tries to resume it with a `Range`
   * request, which a server without range support refuses), up to `retries` times; then, or for
   * any other call, an {@link UnreachableError} says the answer broke off.
   */
  private async receive(
    method: Dispatcher.HttpMethod,
    path: string,
    options: RequestOptions,
  ): Promise<Received> {
    const scope = currentCommandScope();
    const stopWaiting = scope?.waiting((say) => serviceName(this.options.service, say));
    try {
      const release = await this.enter(scope);
      try {
        return await this.receiveInside(method, path, options);
      } finally {
        release();
      }
    } finally {
      stopWaiting?.();
    }
  }

  /**
   * Takes a place in this client's compartment and its service's (see bulkhead.ts): refused at once
   * while the service is known down, or when a command would wait behind too long a line; a command
   * waits at most until its deadline.
   */
  private async enter(scope: CommandScope | undefined): Promise<() => void> {
    const { circuit, compartment } = this.shared;
    circuit.check();
    const places: (() => void)[] = [];
    const release = () => {
      for (const place of places.splice(0).reverse()) place();
    };
    try {
      places.push(await this.compartment.take(scope?.signal, scope !== undefined));
      places.push(await compartment.take(scope?.signal, scope !== undefined));
      circuit.check();
    } catch (error) {
      release();
      throw scope?.signal.aborted ? this.deadlineError(scope) : error;
    }
    return release;
  }

  /** The error of a request cut by its command's deadline. */
  private deadlineError(scope: CommandScope): UnreachableError {
    const service = this.options.service;
    const seconds = Math.round(scope.budgetMs / 1000);
    return new UnreachableError(service, (say) => ({
      message: say.t('http-deadline', serviceNameFirst(say, service), seconds),
    }));
  }

  private async receiveInside(
    method: Dispatcher.HttpMethod,
    path: string,
    options: RequestOptions,
  ): Promise<Received> {
    const retries = IDEMPOTENT.has(method) ? (this.options.retries ?? 2) : 0;
    for (let attempt = 0; ; attempt++) {
      const { statusCode, headers, body } = await this.send(method, path, options);
      try {
        return { statusCode, headers, text: await body.text() };
      } catch (error) {
        const scope = currentCommandScope();
        if (scope?.signal.aborted) throw this.deadlineError(scope);
        if (error instanceof Error && error.name === 'AbortError') throw error;
        if (attempt < retries) continue;
        const service = this.options.service;
        throw new UnreachableError(
          service,
          (say) => ({ message: say.t('http-connection-broke-off', service) }),
          {
            cause: error,
          },
        );
      }
    }
  }

  private async send(
    method: Dispatcher.HttpMethod,
    path: string,
    options: RequestOptions,
    extra: { stream?: boolean; signal?: AbortSignal | undefined; headersTimeoutMs?: number | undefined } = {},
  ) {
    const url = new URL(this.options.baseUrl.replace(/\/$/, '') + path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.options.headers,
      ...options.headers,
    };
    let body: string | undefined;
    if (options.form !== undefined) {
      body = new URLSearchParams(options.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const started = performance.now();
    const route = options.route ?? path;
    // A command's deadline cuts the request and its retries together (streams end by their own signal).
    const scope = extra.stream ? undefined : currentCommandScope();
    if (scope?.signal.aborted) throw this.deadlineError(scope);
    const signal =
      scope && extra.signal ? AbortSignal.any([scope.signal, extra.signal]) : (scope?.signal ?? extra.signal);
    try {
      const sent = request(url, {
        method,
        headers,
        body: body ?? null,
        dispatcher: extra.stream || !IDEMPOTENT.has(method) ? this.plain : this.retrying,
        headersTimeout: extra.headersTimeoutMs ?? this.timeoutMs,
        bodyTimeout: extra.stream ? 0 : this.timeoutMs,
        ...(signal ? { signal } : {}),
      });
      const response = scope ? await untilAborted(sent, scope.signal) : await sent;
      this.observe(method, route, String(response.statusCode), started);
      this.shared.circuit.answered();
      return response;
    } catch (error) {
      this.observe(method, route, 'error', started);
      if (scope?.signal.aborted && !extra.signal?.aborted) {
        this.shared.circuit.unanswered();
        throw this.deadlineError(scope);
      }
      const failure = this.transportError(error);
      if (failure instanceof UnreachableError) this.shared.circuit.unanswered();
      throw failure;
    }
  }

  /**
   * Times one request in the metrics and logs it at debug level (route template only: no query, no
   * body), tagged like every line with the invocation that caused it.
   */
  private observe(method: string, route: string, status: string, started: number): void {
    const seconds = (performance.now() - started) / 1000;
    upstreamDuration.observe({ service: this.options.service, method, route, status }, seconds);
    getProcessLogger().debug(
      { service: this.options.service, method, route, status, ms: Math.round(seconds * 1000) },
      'upstream request',
    );
  }

  private transportError(error: unknown): Error {
    const service = this.options.service;
    if (error instanceof BodyStatusError) {
      return this.toError(error.statusCode, readJson(error.body) ?? error.body, error.headers);
    }
    if (error instanceof undiciErrors.RequestRetryError) {
      return this.toError(error.statusCode, undefined);
    }
    if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      return new UnreachableError(service, (say) => ({ message: say.t('http-timeout', service) }), {
        cause: error,
      });
    }
    if (error instanceof Error && error.name === 'AbortError') return error;
    return new UnreachableError(service, (say) => ({ message: say.t('http-unreachable', service) }), {
      cause: error,
    });
  }

  private toError(
    status: number,
    body: unknown,
    headers: Record<string, string | string[] | undefined> = {},
  ): AnswerError {
    const service = this.options.service;
    const wait = status === 429 || status === 503 ? retryAfterMs(headers['retry-after']) : undefined;
    if (wait !== undefined && wait > this.retryWaitBudgetMs) {
      return new AnswerError(
        service,
        status,
        (say) => ({ message: say.t('http-asked-to-wait', service, waitInWords(say, wait)) }),
        undefined,
        'status',
      );
    }
    // An HTML page (a proxy's error page) is never echoed into the chat: only its status is told.
    const html = typeof body === 'string' && isHtml(headers['content-type'], body);
    const readable = html ? undefined : body;
    const own = this.options.readError?.(status, readable);
    const fallback =
      typeof readable === 'string' && readable.length < 300 && readable.trim() ? readable.trim() : undefined;
    if (typeof own === 'function') {
      const words: Said = (say) => ({
        message: own(say).message,
        hint: own(say).hint ?? hintFor(say, status),
      });
      return new AnswerError(service, status, words, undefined, 'said', inEnglish(own).message);
    }
    const said = own ?? fallback;
    if (said !== undefined) {
      // The service's own text is shown as it said it (in Deckhand's words where it is a validation
      // error), with the hint in the reader's language; `message` keeps the text itself.
      return withWords(
        new AnswerError(service, status, said, hintFor(ENGLISH, status), 'said', said),
        (say) => ({
          message: upstreamWords(said) || said,
          hint: hintFor(say, status),
        }),
      );
    }
    const reason = STATUS_CODES[status];
    const answered = `${status}${reason ? ` ${reason}` : ''}`;
    return new AnswerError(
      service,
      status,
      (say) => ({ message: say.t('http-answered-status', service, answered), hint: hintFor(say, status) }),
      undefined,
      'status',
    );
  }
}

function hintFor(say: Translator, status: number): string | undefined {
  if (status === 401 || status === 403) return say.t('http-hint-credentials');
  if (status === 429) return say.t('http-hint-rate-limited');
  if (status >= 500) return say.t('http-hint-server-problem');
  return undefined;
}
