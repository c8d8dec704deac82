import type { Logger } from 'pino';

interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Logs the connection errors of a Redis client or a BullMQ queue — at most one line per `everyMs` per
 * emitter, since a Redis outage makes them fire many times a second. The clients reconnect by
 * themselves; health checks report the outage meanwhile.
 */
export function logConnectionErrors(
  emitter: ErrorEmitter,
  logger: Logger,
  what: string,
  everyMs = 10_000,
): void {
  let last = 0;
  emitter.on('error', (error) => {
    if (Date.now() - last < everyMs) return;
    last = Date.now();
    logger.warn({ what, error: error.message }, 'Redis connection problem; retrying');
  });
}
