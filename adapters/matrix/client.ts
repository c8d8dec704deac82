/**
 * The matrix-js-sdk client of the bot account: created from the configuration, signed in with the
 * access token (or by logging in with the password once, at start), its logs sent to Deckhand's
 * logger. Events are sent through the SDK's scheduler, which waits out a 429 `M_LIMIT_EXCEEDED` for
 * its `retry_after_ms` (or `Retry-After`) and sends the same transaction again; other requests (media
 * uploads, joins, room creation) go through {@link withRateLimit}, which does the same.
 */
import { createClient, type MatrixClient, MatrixError } from 'matrix-js-sdk';
import { type Logger as SdkLogger, logger as sdkLogger } from 'matrix-js-sdk/lib/logger.js';
import type { Logger } from 'pino';
import type { Config } from '../../src/config';

/** The SDK's logger, forwarding to pino (its debug lines stay at debug). */
function sdkLoggerOf(log: Logger): SdkLogger {
  const text = (msg: unknown[]) => msg.map((m) => (m instanceof Error ? m.message : String(m))).join(' ');
  const of = (child: Logger): SdkLogger => ({
    trace: (...msg: unknown[]) => child.trace(text(msg)),
    debug: (...msg: unknown[]) => child.debug(text(msg)),
    info: (...msg: unknown[]) => child.debug(text(msg)),
    warn: (...msg: unknown[]) => child.warn(text(msg)),
    error: (...msg: unknown[]) => child.warn(text(msg)),
    getChild: (namespace: string) => of(child.child({ sdk: namespace })),
  });
  return of(log.child({ sdk: 'matrix-js-sdk' }));
}

/** A client signed in as the bot. */
export interface BotClient {
  client: MatrixClient;
  userId: string;
}

/**
 * Creates the client; with a password and no token, logs in first (`m.login.password`, the bot's
 * user id as identifier) and keeps the token it gets for this process.
 */
export async function connectClient(config: Config, log: Logger): Promise<BotClient> {
  const baseUrl = (config.MATRIX_HOMESERVER_URL as string).replace(/\/+$/, '');
  const userId = config.MATRIX_USER_ID as string;
  const logger = sdkLoggerOf(log);
  // The scheduler and a few helpers log through the SDK's global logger (debug level by default):
  // keep its chatter out.
  (sdkLogger as unknown as { setLevel(level: string): void }).setLevel('error');
  let accessToken = config.MATRIX_ACCESS_TOKEN;
  if (!accessToken) {
    const login = createClient({ baseUrl, logger });
    const session = await untilReachable(
      () =>
        login.loginRequest({
          type: 'm.login.password',
          identifier: { type: 'm.id.user', user: userId },
          password: config.MATRIX_PASSWORD as string,
          initial_device_display_name: 'Deckhand',
        }),
      log,
    );
    accessToken = session.access_token;
    log.info({ user: session.user_id }, 'matrix: logged in with the password');
  }
  const client = createClient({ baseUrl, accessToken, userId, logger, useAuthorizationHeader: true });
  return { client, userId };
}

/**
 * Runs a request until the homeserver answers: a connection failure or a rate limit waits (1 s
 * doubling to 30 s, or the 429's `retry_after_ms`) and tries again; any answer of the homeserver
 * itself (a refused password) is thrown at once.
 */
async function untilReachable<T>(request: () => Promise<T>, log: Logger): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      const limited = retryAfterOf(error);
      if (error instanceof MatrixError && limited === undefined) throw error;
      const wait = limited ?? Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
      log.warn({ err: error, waitMs: wait }, 'matrix: the homeserver did not answer the login; trying again');
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** How long to wait after a rate-limited answer, or `undefined` when `error` is no rate limit. */
export function retryAfterOf(error: unknown): number | undefined {
  if (!(error instanceof MatrixError) || !error.isRateLimitError()) return undefined;
  try {
    return error.getRetryAfterMs() ?? 1000;
  } catch {
    return 1000;
  }
}

/**
 * Runs a request, waiting out up to `attempts - 1` rate limits (429 with `retry_after_ms`) and sending
 * it again: the SDK retries rate-limited events itself, but not uploads or room operations.
 */
export async function withRateLimit<T>(request: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      const wait = retryAfterOf(error);
      if (wait === undefined || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
