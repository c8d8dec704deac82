import type { Transformer } from 'grammy';
import type { Logger } from 'pino';
import { recordChatApiCall } from '../api-metrics';

/**
 * A grammY API transformer that counts each Bot API request: installed first, so it sits next to
 * the network and sees every attempt auto-retry makes (an `error_code` 429 as rate-limited, another
 * `ok: false` or a failed request as an error). It logs nothing itself: the throttler may run it in
 * another call's async context, so the call is logged by {@link loggingTransformer} outside.
 */
export function countingTransformer(): Transformer {
  return async (prev, method, payload, signal) => {
    try {
      const result = await prev(method, payload, signal);
      const outcome = result.ok ? 'ok' : result.error_code === 429 ? 'rate-limited' : 'error';
      recordChatApiCall(undefined, 'telegram', method, outcome, result.ok ? undefined : result.error_code);
      return result;
    } catch (error) {
      recordChatApiCall(undefined, 'telegram', method, 'error', 'unreachable');
      throw error;
    }
  };
}

/** A grammY API transformer, installed last, that logs each call as its caller made it, with its end. */
export function loggingTransformer(logger: Logger): Transformer {
  return async (prev, method, payload, signal) => {
    const started = performance.now();
    let result: Awaited<ReturnType<typeof prev>>;
    try {
      result = await prev(method, payload, signal);
    } catch (error) {
      logger.debug(
        { platform: 'telegram', method, failed: true, ms: Math.round(performance.now() - started) },
        'chat api call',
      );
      throw error;
    }
    logger.debug(
      {
        platform: 'telegram',
        method,
        ok: result.ok,
        ...(result.ok ? {} : { code: result.error_code }),
        ms: Math.round(performance.now() - started),
      },
      'chat api call',
    );
    return result;
  };
}
