/**
 * A whole Deckhand with the Slack adapter against the fake: the core on the sandbox services, the
 * real Bolt adapter created by its factory from configuration (`SLACK_API_URL` pointing at the fake),
 * Deckhand's one HTTP server, and a driver that talks to it as Slack does.
 */

import type { Logger } from 'pino';
import { createSlackAdapter, type SlackAdapter } from '../../../adapters/slack/load';
import { type Config, loadConfig } from '../../../src/config';
import { Messengers } from '../../../src/core/messenger';
import { silentLogger } from '../../../src/log';
import { DeliveryDeduper } from '../../../src/store/dedupe';
import { WebServer } from '../../../src/web/server';
import type { App } from '../../../src/wiring';
import { startAdapterCore } from '../../support/adapter-core';
import { testPrefix, testRedisUrl } from '../../support/redis';
import { SlackDriver } from './requests';
import { FakeSlack } from './server';

/** The signing secret the test bot is configured with. */
export const SIGNING_SECRET = 'test-signing-secret-0123456789';

/** The variables that point a Deckhand process's Slack adapter at `fake`, over HTTP with `signingSecret`. */
export function slackEnv(fake: FakeSlack, signingSecret = SIGNING_SECRET): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: fake.options.botToken,
    SLACK_API_URL: fake.apiUrl,
    SLACK_SIGNING_SECRET: signingSecret,
  };
}

/** Users of the test workspace: an admin, a maintainer of mytool and someone with no rights. */
export const USERS = {
  admin: { id: 'UADMIN', name: 'ada' },
  maintainer: { id: 'UMAINT', name: 'max' },
  stranger: { id: 'USTRANGER', name: 'sam' },
} as const;

/** Options of {@link startSlackBot}. */
export interface SlackBotOptions {
  mode?: 'http' | 'socket';
  role?: 'web' | 'worker' | 'all';
  env?: Record<string, string>;
  /** Reuse a running fake (a second process of the same workspace). */
  fake?: FakeSlack;
  /** Reuse the Redis key prefix of another bot (another process of the same deployment). */
  prefix?: string;
  logger?: Logger;
}

/** A running bot and its fake Slack. */
export interface SlackBot {
  fake: FakeSlack;
  app: App;
  config: Config;
  adapter: SlackAdapter;
  driver: SlackDriver;
  /** `POST /slack/events` of Deckhand's server (HTTP mode). */
  eventsUrl: string;
  /** Waits until work started by acknowledged interactions has finished. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the fake (unless given), the core on the sandbox, the Slack adapter and the web server. */
export async function startSlackBot(options: SlackBotOptions = {}): Promise<SlackBot> {
  const mode = options.mode ?? 'http';
  const fake = options.fake ?? (await FakeSlack.start());
  const config = loadConfig({
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: options.prefix ?? testPrefix(),
    SANDBOX_STEP_MS: '20',
    ADMINS: `slack:${USERS.admin.id}`,
    TOOL_MAINTAINERS: `mytool=slack:${USERS.maintainer.id}`,
    SLACK_BOT_TOKEN: fake.options.botToken,
    SLACK_API_URL: fake.apiUrl,
    ...(mode === 'http'
      ? { SLACK_SIGNING_SECRET: SIGNING_SECRET }
      : { SLACK_APP_TOKEN: fake.options.appToken }),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const logger = options.logger ?? silentLogger;
  const role = options.role ?? 'all';
  const core = await startAdapterCore({
    config,
    logger,
    role,
    workers: role !== 'web',
    create(context) {
      const adapter = createSlackAdapter(context, {
        // The SDK's retry policy, with short pauses so a test does not wait minutes between tries.
        clientOptions: { retryConfig: { retries: 4, factor: 1, minTimeout: 20, maxTimeout: 100 } },
      }) as SlackAdapter | undefined;
      if (!adapter) throw new Error('the Slack adapter did not configure itself');
      return adapter;
    },
  });
  const { app, web, adapter } = core;
  const webPort = await web.listen(0, '127.0.0.1');
  const eventsUrl = `http://127.0.0.1:${webPort}/slack/events`;
  const driver = new SlackDriver(
    fake,
    mode === 'http' ? { kind: 'http', url: eventsUrl, signingSecret: SIGNING_SECRET } : { kind: 'socket' },
  );
  return {
    fake,
    app,
    config,
    adapter,
    driver,
    eventsUrl,
    async settled() {
      const deadline = Date.now() + 10_000;
      while (adapter.pending() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    },
    async close() {
      await core.close();
      if (!options.fake) await fake.close();
      if (fake.violations.length > 0) {
        throw new Error(`requests Slack would refuse:\n- ${fake.violations.join('\n- ')}`);
      }
    },
  };
}

/** Another process of a bot's deployment, as {@link startSlackWorker} starts it. */
export interface SlackWorker {
  adapter: SlackAdapter;
  /** Its own messengers (the Slack adapter registers there). */
  messengers: Messengers;
  /** Its own web server (not listening until told). */
  web: WebServer;
  /** Stops the adapter and closes the web server. */
  stop(): Promise<void>;
}

/** Starts another `--role worker` process of `bot`: its own adapter, messengers and web server, the same Redis and configuration. */
export async function startSlackWorker(bot: SlackBot): Promise<SlackWorker> {
  const messengers = new Messengers();
  const web = new WebServer(silentLogger);
  const adapter = createSlackAdapter({
    app: { ...bot.app, messengers },
    web,
    config: bot.config,
    logger: silentLogger,
    deduper: new DeliveryDeduper(bot.app.redis.redis, bot.config.REDIS_KEY_PREFIX),
    role: 'worker',
  }) as SlackAdapter;
  await adapter.start();
  return {
    adapter,
    messengers,
    web,
    async stop() {
      await adapter.stop();
      await web.close();
    },
  };
}
