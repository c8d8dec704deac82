/**
 * Which documented limits a request to each chat platform counts against, and how each platform says
 * "too many requests" (status 429 with its own body and headers):
 * - Slack: `chat.postMessage` at most 1 per second per channel (the method's "special" limit).
 * - Discord: messages to a channel 5 per 5 s; every REST request 50 per second (global).
 * - Telegram: messages to one chat about 1 per second; to one group 20 messages and 20 edits per minute;
 *   30 per second overall.
 */
import type { Limit, Verdict } from './rate-limit';

/** A request as the proxy sees it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A platform's rules: the limits of a request, and its 429. */
export interface PlatformRules {
  name: 'slack' | 'discord' | 'telegram';
  limits(request: SeenRequest): Limit[];
  tooMany(verdict: Extract<Verdict, { allowed: false }>): { headers: Record<string, string>; body: unknown };
  /** Is this a message delivered to a conversation (counted in the fan-out)? Returns the conversation. */
  delivery(request: SeenRequest): string | undefined;
}

function contentType(request: SeenRequest): string {
  return String(request.headers['content-type'] ?? '').split(';')[0] ?? '';
}

/** Slack: form-encoded Web API calls. */
export const slackRules: PlatformRules = {
  name: 'slack',
  limits(request) {
    if (request.method !== 'POST' || request.path !== '/api/chat.postMessage') return [];
    const channel = new URLSearchParams(request.body.toString()).get('channel') ?? '';
    return [{ key: `slack:post:${channel}`, limit: 1, windowMs: 1000 }];
  },
  tooMany(verdict) {
    return {
      headers: { 'retry-after': String(Math.ceil(verdict.retryAfterMs / 1000)) },
      body: { ok: false, error: 'ratelimited' },
    };
  },
  delivery(request) {
    if (request.method !== 'POST' || request.path !== '/api/chat.postMessage') return undefined;
    return new URLSearchParams(request.body.toString()).get('channel') ?? undefined;
  },
};

const DISCORD_MESSAGES = /^\/api\/v10\/channels\/(\d+)\/messages$/;

/** Discord: REST under `/api/v10`. */
export const discordRules: PlatformRules = {
  name: 'discord',
  limits(request) {
    if (!request.path.startsWith('/api/')) return [];
    const limits: Limit[] = [{ key: 'discord:global', limit: 50, windowMs: 1000 }];
    const channel = DISCORD_MESSAGES.exec(request.path)?.[1];
    if (channel && request.method === 'POST') {
      limits.unshift({ key: `discord:channel:${channel}`, limit: 5, windowMs: 5000 });
    }
    return limits;
  },
  tooMany(verdict) {
    const seconds = verdict.retryAfterMs / 1000;
    return {
      headers: {
        'retry-after': String(Math.ceil(seconds)),
        ...(verdict.global
          ? { 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' }
          : {
              'x-ratelimit-limit': '5',
              'x-ratelimit-remaining': '0',
              'x-ratelimit-reset-after': seconds.toFixed(3),
              'x-ratelimit-reset': ((Date.now() + verdict.retryAfterMs) / 1000).toFixed(3),
              'x-ratelimit-bucket': 'channel-messages',
              'x-ratelimit-scope': 'user',
            }),
      },
      body: { message: 'You are being rate limited.', retry_after: seconds, global: verdict.global, code: 0 },
    };
  },
  delivery(request) {
    return request.method === 'POST' ? DISCORD_MESSAGES.exec(request.path)?.[1] : undefined;
  },
};

const TELEGRAM_SENDS = /^\/bot[^/]+\/(send\w+|editMessage\w+|copyMessage|forwardMessage)$/;

function telegramChat(request: SeenRequest): string | undefined {
  const type = contentType(request);
  const text = request.body.toString();
  if (type === 'application/json') {
    const chat = (JSON.parse(text || '{}') as { chat_id?: unknown }).chat_id;
    return chat === undefined ? undefined : String(chat);
  }
  if (type === 'application/x-www-form-urlencoded')
    return new URLSearchParams(text).get('chat_id') ?? undefined;
  // multipart: the chat_id field
  return /name="chat_id"\r\n\r\n(-?\d+)/.exec(text)?.[1];
}

/** Telegram: Bot API methods under `/bot<token>/`. */
export const telegramRules: PlatformRules = {
  name: 'telegram',
  limits(request) {
    if (!TELEGRAM_SENDS.test(request.path)) return [];
    const chat = telegramChat(request);
    if (chat === undefined) return [];
    const group = chat.startsWith('-');
    const edit = /\/editMessage\w+$/.test(request.path);
    return [
      group
        ? { key: `telegram:${edit ? 'group-edits' : 'group'}:${chat}`, limit: 20, windowMs: 60_000 }
        : { key: `telegram:chat:${chat}`, limit: 1, windowMs: 1000 },
      { key: 'telegram:global', limit: 30, windowMs: 1000 },
    ];
  },
  tooMany(verdict) {
    const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
    return {
      headers: {},
      body: {
        ok: false,
        error_code: 429,
        description: `Too Many Requests: retry after ${seconds}`,
        parameters: { retry_after: seconds },
      },
    };
  },
  delivery(request) {
    return /\/sendMessage$/.test(request.path) ? telegramChat(request) : undefined;
  },
};
