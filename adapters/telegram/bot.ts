/**
 * The grammY bot and its API client, with grammY's own rate-limit machinery:
 * - `@grammyjs/auto-retry`: a 429 waits the `retry_after` Telegram names and sends the same request
 *   again (and 5xx and network errors back off and retry), so a rate limit delays, never drops;
 * - `@grammyjs/transformer-throttler`: ~1 message/s per private chat, 20/min per group, 30/s overall,
 *   with edits throttled apart from new messages (a group takes 20 of each a minute), both from the
 *   budgets the descriptor states (./budget.ts).
 *
 * The throttler is installed after auto-retry, so it is the outer of the two: a request waiting out its
 * `retry_after` keeps its chat's slot, and later messages to that chat queue behind it instead of
 * overtaking it (a progress card never goes back to an older state).
 */
import { autoRetry } from '@grammyjs/auto-retry';
import { apiThrottler } from '@grammyjs/transformer-throttler';
import { Api, Bot, type Transformer } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Logger } from 'pino';
import type { Config } from '../../src/config';
import { countingTransformer, loggingTransformer } from './api-metrics';
import { TELEGRAM_CHAT_BUDGET, TELEGRAM_GROUP_BUDGET } from './budget';

/** Throttler limits (Bottleneck options per private chat, per group and overall). */
export type ThrottleOptions = NonNullable<Parameters<typeof apiThrottler>[0]>;

/** The Bot API root: `TELEGRAM_API_ROOT` (a local Bot API server, a test fake) or Telegram's. */
export function apiRootOf(config: Config): string {
  return (config.TELEGRAM_API_ROOT ?? 'https://api.telegram.org').replace(/\/+$/, '');
}

/** True when the API root is Telegram's cloud server (20 MB download limit). */
export function isCloudApi(config: Config): boolean {
  return new URL(apiRootOf(config)).hostname === 'api.telegram.org';
}

/** Options of {@link createBot}. */
export interface BotOptions {
  /** Throttler limits of new messages (and of edits, unless `editThrottle` is given). */
  throttle?: ThrottleOptions | undefined;
  /** Throttler limits of edits (`editMessage…`). */
  editThrottle?: ThrottleOptions | undefined;
  /** Skip `getMe` at start (tests). */
  botInfo?: UserFromGetMe | undefined;
  /** Longest `retry_after` waited out, in seconds (longer ones fail the request). */
  maxRetryDelaySeconds?: number;
  /** Where each API call is logged at debug level (default: nowhere; the calls are counted anyway). */
  logger?: Logger;
  /** Sees every raw attempt, inside auto-retry (see reachability.ts). */
  observe?: Transformer;
}

function clientOptions(config: Config) {
  return { apiRoot: apiRootOf(config), timeoutSeconds: 75 };
}

function retry(options: BotOptions) {
  return autoRetry({ maxRetryAttempts: 8, maxDelaySeconds: options.maxRetryDelaySeconds ?? 3600 });
}

/**
 * The throttler's limits, a little under Telegram's (30/s overall, 20/min per group, ~1/s per chat):
 * the plugin's defaults sit exactly on the limits, so one burst delayed by a busy event loop overlaps the
 * next second's and draws 429s (measured by the fan-out benchmark). Spacing the global rate (≤ 28/s,
 * at least 35 ms apart) leaves that margin.
 */
export const DEFAULT_THROTTLE: ThrottleOptions = {
  global: { reservoir: 28, reservoirRefreshAmount: 28, reservoirRefreshInterval: 1000, minTime: 35 },
  group: {
    maxConcurrent: 1,
    minTime: TELEGRAM_GROUP_BUDGET.posts.minGapMs ?? 0,
    reservoir: TELEGRAM_GROUP_BUDGET.posts.count - 1,
    reservoirRefreshAmount: TELEGRAM_GROUP_BUDGET.posts.count - 1,
    reservoirRefreshInterval: TELEGRAM_GROUP_BUDGET.posts.perMs,
  },
  out: { maxConcurrent: 1, minTime: TELEGRAM_CHAT_BUDGET.posts.perMs / TELEGRAM_CHAT_BUDGET.posts.count },
};

/**
 * The throttler's limits of edits in groups, per the descriptor's edit budget. The card publisher
 * already paces and coalesces its edits by that budget; this holds any other edit to it too.
 */
export const DEFAULT_EDIT_THROTTLE: ThrottleOptions = {
  global: { reservoir: 28, reservoirRefreshAmount: 28, reservoirRefreshInterval: 1000, minTime: 35 },
  group: {
    maxConcurrent: 1,
    minTime: TELEGRAM_GROUP_BUDGET.edits.minGapMs ?? 0,
    reservoir: TELEGRAM_GROUP_BUDGET.edits.count,
    reservoirRefreshAmount: TELEGRAM_GROUP_BUDGET.edits.count,
    reservoirRefreshInterval: TELEGRAM_GROUP_BUDGET.edits.perMs,
  },
  out: { maxConcurrent: 1, minTime: 0 },
};

/**
 * Edits in groups through one throttler (a group's edits have a budget of their own), everything else
 * through the other (a private chat's one message a second counts edits too).
 */
function throttlers(options: BotOptions): Transformer {
  const sends = apiThrottler(options.throttle ?? DEFAULT_THROTTLE);
  const edits = apiThrottler(options.editThrottle ?? options.throttle ?? DEFAULT_EDIT_THROTTLE);
  return (prev, method, payload, signal) => {
    const chat = payload && 'chat_id' in payload ? Number(payload.chat_id) : 0;
    const groupEdit = method.startsWith('editMessage') && chat < 0;
    return (groupEdit ? edits : sends)(prev, method, payload, signal);
  };
}

/** Creates the bot for `TELEGRAM_BOT_TOKEN` with auto-retry and the throttler on its API. */
export function createBot(config: Config, options: BotOptions = {}): Bot {
  const token = config.TELEGRAM_BOT_TOKEN;
  if (!token) throw new Error('TELEGRAM_BOT_TOKEN is not set');
  const bot = new Bot(token, {
    client: clientOptions(config),
    ...(options.botInfo ? { botInfo: options.botInfo } : {}),
  });
  // grammY runs the transformer installed last outermost: counting sits next to the network (it sees
  // every attempt auto-retry makes), logging outside everything (one line per call, in its caller's
  // async context, which the throttler's scheduling would not keep).
  bot.api.config.use(countingTransformer());
  if (options.observe) bot.api.config.use(options.observe);
  bot.api.config.use(retry(options));
  bot.api.config.use(throttlers(options));
  if (options.logger) bot.api.config.use(loggingTransformer(options.logger));
  return bot;
}

/** A bare API client with auto-retry (for `deckhand register telegram`). */
export function createApi(config: Config, options: BotOptions = {}): Api {
  const token = config.TELEGRAM_BOT_TOKEN;
  if (!token) throw new Error('TELEGRAM_BOT_TOKEN is not set: there is no bot to register commands for.');
  const api = new Api(token, clientOptions(config));
  api.config.use(countingTransformer());
  api.config.use(retry(options));
  return api;
}
