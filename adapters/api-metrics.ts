/**
 * What every adapter records about its chat platform: how fast requests are acknowledged, and each
 * call to the platform's API (counted per platform and method; failures and 429s apart). The
 * adapters feed these from their SDKs' own hooks (a web client's `fetch`, a REST client's
 * `response` event, a grammY API transformer).
 */
import type { Logger } from 'pino';
import type { RouteHandler } from '../src/core/host';
import { ackDuration, chatApiCalls, chatApiErrors, chatApiRateLimited } from '../src/metrics';
import type { PlatformName } from './platforms';

/** A chat platform, as the metrics label it. */
export type ChatPlatform = PlatformName;

/** How one chat API call (one HTTP attempt) ended. */
export type ChatApiResult = 'ok' | 'error' | 'rate-limited';

/**
 * Counts one call to a chat API and, given a logger, logs it at debug level (tagged, like every
 * line, with the invocation that caused it). `method` must be a bounded name (an API method or route
 * template).
 */
export function recordChatApiCall(
  logger: Logger | undefined,
  platform: ChatPlatform,
  method: string,
  result: ChatApiResult,
  status?: number | string,
): void {
  chatApiCalls.inc({ platform, method });
  if (result === 'rate-limited') chatApiRateLimited.inc({ platform, method });
  if (result === 'error') chatApiErrors.inc({ platform, method });
  logger?.debug({ platform, method, result, ...(status !== undefined ? { status } : {}) }, 'chat api call');
}

/** Records one acknowledgement that took `seconds`. */
export function recordAck(platform: ChatPlatform, seconds: number): void {
  ackDuration.observe({ platform }, seconds);
}

/**
 * `handler`, timed from the request's arrival until its answer is sent: for the webhook routes
 * whose HTTP answer is the acknowledgement (an events API, a webhook).
 */
export function ackTimed(platform: ChatPlatform, handler: RouteHandler): RouteHandler {
  return (req, res) => {
    const started = performance.now();
    res.once('finish', () => recordAck(platform, (performance.now() - started) / 1000));
    return handler(req, res);
  };
}
