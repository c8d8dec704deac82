/**
 * Deckhand with its Telegram adapter against the fake Bot API and the sandbox: the whole core
 * (runner, BullMQ watches, Redis) plus the real adapter wired only by configuration
 * (`TELEGRAM_BOT_TOKEN`, `TELEGRAM_API_ROOT`), as `deckhand start` wires it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { User, UserFromGetMe } from 'grammy/types';
import pino, { type Logger } from 'pino';
import { TelegramAdapter, type TelegramAdapterOptions } from '../../adapters/telegram/adapter';
import { type Config, loadConfig } from '../../src/config';
import type { AnyCommand } from '../../src/core/command';
import type { WebServer } from '../../src/web/server';
import type { App } from '../../src/wiring';
import { startAdapterCore } from '../support/adapter-core';
import { testPrefix, testRedisUrl } from '../support/redis';
import { type FakeTelegram, startFakeTelegram } from './telegram';

/** Telegram ids of the test users. */
export const TG_USERS = { admin: 501, maintainer: 502, stranger: 503 } as const;

/** Options of {@link startTelegramDeckhand}. */
export interface HarnessOptions {
  /** Extra environment (e.g. webhook settings). */
  env?: Record<string, string>;
  adapter?: TelegramAdapterOptions;
  role?: 'web' | 'worker' | 'all';
  /** Commands added to the registry before the adapter starts (test-only commands). */
  commands?: AnyCommand<never>[];
  /** Let the adapter call getMe instead of passing it the bot's identity. */
  callGetMe?: boolean;
  /** Reuse a running fake (a second process of the same bot). */
  fake?: FakeTelegram;
  /** Reuse the Redis key prefix of another run (the same deployment, restarted). */
  prefix?: string;
  /** Where Deckhand logs (default: nowhere unless TEST_LOG names a level). */
  logger?: Logger;
}

/** A running Deckhand served over the fake Bot API. */
export interface TelegramDeckhand {
  fake: FakeTelegram;
  app: App;
  adapter: TelegramAdapter;
  web: WebServer;
  /** Base URL of Deckhand's HTTP server. */
  webUrl: string;
  config: Config;
  users: { admin: User; maintainer: User; stranger: User };
  close(): Promise<void>;
}

/** No output unless TEST_LOG names a level. */
function testLogger() {
  return pino({ level: process.env.TEST_LOG ?? 'silent' });
}

/** Starts the fake Bot API (unless given), the core on the sandbox and the Telegram adapter. */
export async function startTelegramDeckhand(options: HarnessOptions = {}): Promise<TelegramDeckhand> {
  const fake = options.fake ?? (await startFakeTelegram());
  const config = loadConfig({
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: options.prefix ?? testPrefix(),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-tg-')),
    SANDBOX_STEP_MS: '20',
    LOG_LEVEL: 'silent',
    TELEGRAM_BOT_TOKEN: fake.token,
    TELEGRAM_API_ROOT: fake.apiRoot,
    ADMINS: `telegram:${TG_USERS.admin}`,
    TOOL_MAINTAINERS: `mytool=telegram:${TG_USERS.maintainer}`,
    ...options.env,
  });
  const logger = options.logger ?? testLogger();
  const role = options.role ?? 'all';
  const { app, web, adapter, close } = await startAdapterCore({
    config,
    logger,
    role,
    workers: role !== 'web',
    commands: options.commands,
    create: (context) =>
      new TelegramAdapter(context, {
        // Keep the per-chat throttle on, but fast; a test turns the real spacing back on.
        throttle: { out: { maxConcurrent: 1, minTime: 0 }, group: { maxConcurrent: 1, minTime: 0 } },
        pollTimeoutSeconds: 30,
        ...(options.callGetMe ? {} : { botInfo: fake.state.bot as UserFromGetMe }),
        ...options.adapter,
      }),
  });
  const webPort = await web.listen(0, '127.0.0.1');
  const users = {
    admin: fake.user(TG_USERS.admin, 'Ada', 'ada'),
    maintainer: fake.user(TG_USERS.maintainer, 'Max', 'max'),
    stranger: fake.user(TG_USERS.stranger, 'Sam'),
  };
  return {
    fake,
    app,
    adapter,
    web,
    webUrl: `http://127.0.0.1:${webPort}`,
    config,
    users,
    async close() {
      await close();
      if (!options.fake) await fake.close();
      rmSync(config.DATA_DIR, { recursive: true, force: true });
    },
  };
}
