/**
 * `deckhand doctor`: passes on a good deployment (Slack, Discord and Telegram fakes, a Redis with the
 * append-only file and noeviction, the real-service emulators as the services, PUBLIC_URL answering
 * /readyz, no webhook registration diverting the gateway or long polling; and again with Telegram's
 * webhook and Discord's HTTP interactions registered at PUBLIC_URL) and fails — with one ✗ line naming what to do — on each broken check of a table, every
 * broken case starting from that good configuration (so the ✗ is that check's, and only that one).
 */

import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CalendarSandbox, startCalendarSandbox } from '@deckhand/sandbox/calendar';
import { type MediaSandbox, startMediaSandbox } from '@deckhand/sandbox/media';
import { type SourcehostSandbox, startSourcehostSandbox } from '@deckhand/sandbox/sourcehost';
import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/cli/doctor';
import { inert } from '../../src/cli/doctor/webhook-checks';
import { SOURCE_WEBHOOK_PATH } from '../../src/web/oauth-routes';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord';
import { FakeSlack } from '../fakes/slack';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram';
import { freePort, startTestRedis, type TestRedis } from '../support/redis-server';

let redis: TestRedis;
let evicting: TestRedis;
let noAof: TestRedis;
let media: MediaSandbox;
let slack: FakeSlack;
let discord: FakeDiscord;
let telegram: FakeTelegram;
let toolhost: ToolhostSandbox;
let calendar: CalendarSandbox;
let sourcehost: SourcehostSandbox;
let web: Server;
let webUrl: string;
/** A port nothing listens on. */
let closedPort: number;
let good: Record<string, string>;

/** The fake Discord application's public key (its default `verify_key`). */
const FAKE_KEY = 'ab'.repeat(32);

/**
 * Stands in a webhook registration in the fake Bot API's state. Telegram's setWebhook takes only HTTPS
 * on ports 80/88/443/8443 (the fake refuses others, too), so the registration a deployment at an
 * HTTPS PUBLIC_URL would leave is put in place directly for the local PUBLIC_URL.
 */
function registerWebhook(url: string): void {
  telegram.state.webhook = { url, secretToken: 'hook-secret' };
}

/** Undoes the rows' registrations: deleteWebhook dropping pending updates, no interactions endpoint. */
async function resetRegistrations(): Promise<void> {
  const response = await fetch(`${telegram.apiRoot}/bot${telegram.token}/deleteWebhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ drop_pending_updates: true }),
  });
  expect(response.status).toBe(200);
  discord.application.interactionsEndpointUrl = null;
}

/** A stand-in for a Deckhand web process: /readyz answers 200 (or 503 once `ready` is false). */
function readyServer(): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(req.url === '/readyz' ? 200 : 404).end('{"status":"ready"}');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  [redis, evicting, noAof, slack, discord, telegram, toolhost, calendar, sourcehost, media, web] =
    await Promise.all([
      startTestRedis({ persistent: true }),
      startTestRedis({ persistent: true }),
      startTestRedis(),
      FakeSlack.start(),
      startFakeDiscord().then((d) => d.listen()),
      startFakeTelegram(),
      startToolhostSandbox({ stepMs: 5 }),
      startCalendarSandbox(),
      startSourcehostSandbox(),
      startMediaSandbox({ dataDir: mkdtempSync(join(tmpdir(), 'deckhand-doctor-')) }),
      readyServer(),
    ]);
  const evictingClient = new Redis(evicting.port, evicting.host);
  await evictingClient.config('SET', 'maxmemory-policy', 'allkeys-lru');
  evictingClient.disconnect();
  closedPort = await freePort();
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  good = {
    REDIS_URL: `redis://${redis.host}:${redis.port}`,
    SECRET_KEY: 'a'.repeat(64),
    PUBLIC_URL: webUrl,
    SLACK_BOT_TOKEN: 'xoxb-test-token',
    SLACK_SIGNING_SECRET: 'signing-secret',
    SLACK_API_URL: slack.apiUrl,
    DISCORD_TOKEN: discord.token,
    DISCORD_APPLICATION_ID: discord.identity.applicationId,
    DISCORD_API_URL: discord.apiUrl,
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    TOOLHOST_URL: toolhost.externalUrl,
    CALENDAR_URL: calendar.restRoot,
    SOURCEHOST_URL: sourcehost.apiUrl,
    MEDIA_API_URL: media.apiUrl,
    MEDIA_API_KEY: media.apiKey,
  };
}, 60_000);

afterAll(async () => {
  await Promise.all([
    redis?.stop(),
    evicting?.stop(),
    noAof?.stop(),
    media?.close(),
    slack?.close(),
    discord?.close(),
    telegram?.close(),
  ]);
  await Promise.all([toolhost?.close(), calendar?.close(), sourcehost?.close()]);
  web?.close();
});

describe('deckhand doctor', () => {
  it('passes on a good deployment: every platform, Redis and service checked, exit 0', async () => {
    const lines: string[] = [];
    const code = await runDoctor(good, { sandboxFlag: false, write: (l) => lines.push(l) });
    const out = lines.join('\n');
    expect(out).not.toContain('✗');
    expect(code).toBe(0);
    for (const label of [
      'Slack credentials',
      'Discord credentials',
      'Telegram credentials',
      'Redis eviction',
      'Redis persistence',
      'Tool platform',
      'Calendar',
      'Source host',
      'Media host',
      'PUBLIC_URL',
      'Telegram webhook',
      'Discord interactions endpoint',
    ]) {
      expect(out).toMatch(new RegExp(`^✓ ${label}:`, 'm'));
    }
    expect(out).toContain('✓ Telegram webhook: none set, as long polling needs.');
    expect(out).toContain('✓ Discord interactions endpoint: none set: interactions arrive over the gateway.');
    // Slack shows its Request URLs to no bot token: a `-` line saying where to look.
    expect(out).toMatch(/^- Slack request URLs: not checked: .*\/slack\/events/m);
    expect(out).toMatch(/^- Source host webhook: SOURCEHOST_WEBHOOK_SECRET not set/m);
    expect(out).toContain('✓ Telegram credentials: @deckhand_bot');
    expect(out).toContain('✓ Discord credentials: bot Deckhand');
    // The checks reached the fakes (the positive control of "against the configured API roots").
    expect(telegram.callsTo('getMe').length).toBeGreaterThan(0);
    expect(slack.calls.some((c) => c.method === 'auth.test')).toBe(true);
    expect(discord.requests.some((r) => r.path === '/users/@me')).toBe(true);
    expect(telegram.callsTo('getWebhookInfo').length).toBeGreaterThan(0);
    expect(discord.requests.some((r) => r.path === '/applications/@me')).toBe(true);
    expect(discord.violations).toEqual([]);
    telegram.assertClean();
  });

  it('passes with the Telegram webhook and Discord HTTP interactions registered at PUBLIC_URL', async () => {
    registerWebhook(`${webUrl}/telegram/webhook`);
    discord.application.interactionsEndpointUrl = `${webUrl}/discord/interactions`;
    try {
      const env = {
        ...good,
        TELEGRAM_WEBHOOK_SECRET: 'hook-secret',
        DISCORD_PUBLIC_KEY: FAKE_KEY,
        SOURCEHOST_WEBHOOK_SECRET: 'source-hook-secret',
      };
      const lines: string[] = [];
      const code = await runDoctor(env, { sandboxFlag: false, write: (l) => lines.push(l) });
      const out = lines.join('\n');
      expect(out).not.toContain('✗');
      expect(code).toBe(0);
      expect(out).toContain(`✓ Telegram webhook: ${webUrl}/telegram/webhook, 0 pending.`);
      expect(out).toContain(`✓ Discord interactions endpoint: ${webUrl}/discord/interactions.`);
      // Source-host hooks cannot be listed with Deckhand's tokens: a `-` line naming the URL to use.
      expect(out).toContain(
        `- Source host webhook: not checked: listing a repository's hooks needs its admin's token, which Deckhand does not hold; the repository_import hook must post to ${webUrl}${SOURCE_WEBHOOK_PATH} with SOURCEHOST_WEBHOOK_SECRET.`,
      );
      expect(out).not.toContain('hook-secret');
    } finally {
      await resetRegistrations();
    }
  });

  it('in the sandbox, says /link source works against the source host emulator (not that it is off)', async () => {
    const { SOURCEHOST_URL: _real, ...env } = good;
    const lines: string[] = [];
    await runDoctor({ ...env, SANDBOX: '1' }, { sandboxFlag: false, write: (l) => lines.push(l) });
    const out = lines.join('\n');
    expect(out).toContain(
      '- Source host settings: the source host emulator (sandbox) brings its own OAuth app: `/link source` works against it.',
    );
    expect(out).not.toContain('is off');
    // Outside the sandbox, without an OAuth app, it is off and says so.
    lines.length = 0;
    await runDoctor(good, { sandboxFlag: false, write: (l) => lines.push(l) });
    expect(lines.join('\n')).toContain('- Source host settings: no OAuth app: `/link source` is off.');
  });

  it('shows platform-supplied text inert: one line, secrets masked, at most 120 characters', () => {
    expect(inert('a\nb\u001b[31mc\u2028d', [])).toBe('a b [31mc d');
    expect(inert(`https://x.example/bot${telegram.token}/hook`, [telegram.token])).toBe(
      'https://x.example/bot[secret]/hook',
    );
    const long = inert('e'.repeat(500));
    expect(long).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
  });

  /** A row: what it breaks, the variables it changes, its ✗ line, and what it changes at a platform. */
  const broken: [string, Record<string, string>, RegExp, (() => void)?][] = [
    ['an invalid variable', { PORT: 'eighty' }, /^✗ Configuration: PORT: /],
    [
      'no chat platform',
      {
        SLACK_BOT_TOKEN: '',
        SLACK_SIGNING_SECRET: '',
        DISCORD_TOKEN: '',
        DISCORD_APPLICATION_ID: '',
        TELEGRAM_BOT_TOKEN: '',
      },
      /^✗ Chat platforms: none configured: set TELEGRAM_BOT_TOKEN/,
    ],
    ['no SECRET_KEY', { SECRET_KEY: '' }, /^✗ SECRET_KEY: not set/],
    [
      'Slack without signing secret or app token',
      { SLACK_SIGNING_SECRET: '' },
      /^✗ Slack settings: set SLACK_SIGNING_SECRET .* or SLACK_APP_TOKEN/,
    ],
    [
      'Slack OAuth without SLACK_CLIENT_SECRET',
      { SLACK_CLIENT_ID: '123.456' },
      /^✗ Slack settings: set SLACK_CLIENT_SECRET/,
    ],
    [
      'Discord without application id',
      { DISCORD_APPLICATION_ID: '' },
      /^✗ Discord settings: set DISCORD_APPLICATION_ID/,
    ],
    [
      'Discord HTTP interactions without PUBLIC_URL',
      { DISCORD_PUBLIC_KEY: 'b'.repeat(64), PUBLIC_URL: '' },
      /^✗ Discord settings: DISCORD_PUBLIC_KEY .* needs PUBLIC_URL/,
    ],
    [
      'Telegram webhook without PUBLIC_URL',
      { TELEGRAM_WEBHOOK_SECRET: 'hook-secret', PUBLIC_URL: '' },
      /^✗ Telegram settings: TELEGRAM_WEBHOOK_SECRET needs PUBLIC_URL/,
    ],
    [
      'no tool platform with a chat platform',
      { TOOLHOST_URL: '' },
      /^✗ Tool platform settings: no TOOLHOST_URL or TOOLHOST_INTERNAL_URL/,
    ],
    [
      'internal tool platform without certificates',
      { TOOLHOST_INTERNAL_URL: 'https://127.0.0.1:CLOSED' },
      /^✗ Tool platform settings: TOOLHOST_INTERNAL_URL needs TOOLHOST_CERT_DIR/,
    ],
    [
      'calendar user without password',
      { CALENDAR_USER: 'deckhand' },
      /^✗ Calendar settings: CALENDAR_USER is set: set CALENDAR_APP_PASSWORD too/,
    ],
    [
      'source host OAuth without PUBLIC_URL',
      { SOURCEHOST_CLIENT_ID: 'id', SOURCEHOST_CLIENT_SECRET: 'secret', PUBLIC_URL: '' },
      /^✗ Source host settings: SOURCEHOST_CLIENT_ID needs PUBLIC_URL/,
    ],
    ['no REDIS_URL', { REDIS_URL: '' }, /^✗ Redis: REDIS_URL is not set/],
    [
      'Redis unreachable',
      { REDIS_URL: 'redis://127.0.0.1:CLOSED' },
      /^✗ Redis: cannot use the Redis at 127\.0\.0\.1:CLOSED \(.*ECONNREFUSED/,
    ],
    ['Redis that evicts', { REDIS_URL: 'EVICTING' }, /^✗ Redis eviction: maxmemory-policy is allkeys-lru/],
    [
      'Redis without the append-only file',
      { REDIS_URL: 'NO_AOF' },
      /^✗ Redis persistence: the append-only file is off/,
    ],
    [
      'a wrong Slack token',
      { SLACK_BOT_TOKEN: 'xoxb-wrong' },
      /^✗ Slack credentials: auth.test answered invalid_auth/,
    ],
    [
      'a wrong Discord token',
      { DISCORD_TOKEN: 'wrong-token' },
      /^✗ Discord credentials: \/users\/@me answered 401/,
    ],
    [
      'a wrong Telegram token',
      { TELEGRAM_BOT_TOKEN: '123:AAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      /^✗ Telegram credentials: getMe answered 40[14]/,
    ],
    [
      'Telegram unreachable',
      { TELEGRAM_API_ROOT: 'http://127.0.0.1:CLOSED' },
      /^✗ Telegram credentials: cannot reach http:\/\/127\.0\.0\.1:CLOSED\/ \(ECONNREFUSED\)/,
    ],
    [
      'tool platform unreachable',
      { TOOLHOST_URL: 'http://127.0.0.1:CLOSED' },
      /^✗ Tool platform: cannot reach http:\/\/127\.0\.0\.1:CLOSED\/builds\/v1\/healthz/,
    ],
    [
      'calendar without the plugin',
      { CALENDAR_NAMESPACE: 'other/v9' },
      /^✗ Calendar: the site has no other\/v9 API/,
    ],
    [
      'calendar URL not a REST root',
      { CALENDAR_URL: `WEB/not-wp-json` },
      /^✗ Calendar: .* answered 404 without a REST index/,
    ],
    [
      'media host refusing the key',
      { MEDIA_API_KEY: 'not-a-key-123' },
      /^✗ Media host: account\/info refused MEDIA_API_KEY/,
    ],
    [
      'source host unreachable',
      { SOURCEHOST_URL: 'http://127.0.0.1:CLOSED' },
      /^✗ Source host: cannot reach http:\/\/127\.0\.0\.1:CLOSED\/rate_limit/,
    ],
    [
      'PUBLIC_URL not serving Deckhand',
      { PUBLIC_URL: 'http://127.0.0.1:CLOSED' },
      /^✗ PUBLIC_URL: cannot reach http:\/\/127\.0\.0\.1:CLOSED\/readyz/,
    ],
    [
      'a Telegram webhook set while Deckhand long-polls (its URL carrying the bot token and an escape)',
      {},
      /^✗ Telegram webhook: a webhook is set \(https:\/\/other\.example\/bot\[secret\] \[2J\/hook\), and Telegram refuses getUpdates/,
      () => registerWebhook(`https://other.example/bot${telegram.token}\u001b[2J/hook`),
    ],
    [
      'no Telegram webhook registered in webhook mode',
      { TELEGRAM_WEBHOOK_SECRET: 'hook-secret' },
      /^✗ Telegram webhook: none set: the web process registers http:\/\/127\.0\.0\.1:\d+\/telegram\/webhook/,
    ],
    [
      'the Telegram webhook registered at another URL',
      { TELEGRAM_WEBHOOK_SECRET: 'hook-secret' },
      /^✗ Telegram webhook: set to https:\/\/old\.example\/telegram\/webhook, not http:\/\/127\.0\.0\.1:\d+\/telegram\/webhook: /,
      () => registerWebhook('https://old.example/telegram/webhook'),
    ],
    [
      'Telegram failing to deliver to the webhook',
      { TELEGRAM_WEBHOOK_SECRET: 'hook-secret' },
      /^✗ Telegram webhook: Telegram's last delivery to http:\/\/127\.0\.0\.1:\d+\/telegram\/webhook failed \d+ s ago: "Wrong response from the webhook: 502 Bad Gateway"/,
      () => {
        registerWebhook(`${webUrl}/telegram/webhook`);
        telegram.webhookDeliveryFailed('Wrong response from the webhook: 502 Bad Gateway');
      },
    ],
    [
      'a backlog of Telegram updates for the webhook',
      { TELEGRAM_WEBHOOK_SECRET: 'hook-secret' },
      /^✗ Telegram webhook: 150 updates wait for delivery to http:\/\/127\.0\.0\.1:\d+\/telegram\/webhook/,
      () => {
        registerWebhook(`${webUrl}/telegram/webhook`);
        telegram.push(...Array.from({ length: 150 }, (_, i) => ({ update_id: 900_000 + i })));
      },
    ],
    [
      'a Discord interactions endpoint set while Deckhand uses the gateway',
      {},
      /^✗ Discord interactions endpoint: set to https:\/\/other\.example\/interactions, so Discord sends interactions there, not over the gateway/,
      () => {
        discord.application.interactionsEndpointUrl = 'https://other.example/interactions';
      },
    ],
    [
      'the Discord interactions endpoint elsewhere in HTTP mode',
      { DISCORD_PUBLIC_KEY: FAKE_KEY },
      /^✗ Discord interactions endpoint: set to https:\/\/old\.example\/discord\/interactions: set it to http:\/\/127\.0\.0\.1:\d+\/discord\/interactions/,
      () => {
        discord.application.interactionsEndpointUrl = 'https://old.example/discord/interactions';
      },
    ],
    [
      "DISCORD_PUBLIC_KEY not the application's",
      { DISCORD_PUBLIC_KEY: 'c'.repeat(64) },
      /^✗ Discord interactions endpoint: DISCORD_PUBLIC_KEY is not this application's public key/,
      () => {
        discord.application.interactionsEndpointUrl = `${webUrl}/discord/interactions`;
      },
    ],
  ];

  it.each(broken)(
    'fails on %s, naming what to do, and on nothing else',
    async (_name, change, expected, arrange) => {
      arrange?.();
      try {
        await brokenRow(change, expected);
      } finally {
        await resetRegistrations();
      }
    },
  );
});

/** Runs doctor on the good configuration with `change` and checks that only `expected` failed. */
async function brokenRow(change: Record<string, string>, expected: RegExp): Promise<void> {
  const env: Record<string, string> = { ...good, ...change };
  if (env.REDIS_URL === 'EVICTING') env.REDIS_URL = `redis://${evicting.host}:${evicting.port}`;
  if (env.REDIS_URL === 'NO_AOF') env.REDIS_URL = `redis://${noAof.host}:${noAof.port}`;
  if (env.CALENDAR_URL?.startsWith('WEB')) env.CALENDAR_URL = env.CALENDAR_URL.replace('WEB', webUrl);
  for (const [name, value] of Object.entries(env)) env[name] = value.replace('CLOSED', String(closedPort));
  const printed: string[] = [];
  const code = await runDoctor(env, { sandboxFlag: false, write: (line) => printed.push(line) });
  const lines = printed.filter((line) => line.startsWith('✗'));
  const pattern = new RegExp(expected.source.replace('CLOSED', String(closedPort)));
  expect(
    lines.some((line) => pattern.test(line)),
    lines.join('\n'),
  ).toBe(true);
  // Only this check failed.
  expect(lines.filter((line) => !pattern.test(line))).toEqual([]);
  // No secret in any line.
  for (const line of printed) {
    for (const secret of [telegram.token, 'xoxb-test-token', discord.token, 'signing-secret', media.apiKey]) {
      expect(line).not.toContain(secret);
    }
  }
  // A configuration problem is exit 2 (what `start` refuses with); any other failed check exit 1.
  expect(code).toBe(
    /^\^✗ (Configuration|Chat platforms|SECRET_KEY|[A-Za-z ]+ settings):/.test(expected.source) ? 2 : 1,
  );
}
