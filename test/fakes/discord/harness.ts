/**
 * Test set-up for the Discord adapter: the fake Discord, the whole core on the toolhost sandbox and
 * the test Redis, the one HTTP server, and the real adapter wired only by configuration
 * (`DISCORD_API_URL` pointing at the fake).
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { DiscordAdapter, type DiscordAdapterOptions } from '../../../adapters/discord/load';
import { type Config, loadConfig } from '../../../src/config';
import { conversationId } from '../../../src/core/conversation';
import type { WebServer } from '../../../src/web/server';
import type { App } from '../../../src/wiring';
import { startAdapterCore } from '../../support/adapter-core';
import { testPrefix, testRedisUrl } from '../../support/redis';
import type { InteractionPlace } from './payloads';
import { type FakeDiscord, startFakeDiscord } from './server';
import { snowflake } from './store';

/** Options of {@link startDiscordHarness}. */
export interface HarnessOptions {
  /** `http` sets DISCORD_PUBLIC_KEY (a fresh key pair) and serves `/discord/interactions`. */
  mode?: 'gateway' | 'http' | 'worker';
  adapter?: DiscordAdapterOptions;
  env?: Record<string, string>;
  /** Run the queue workers in this process (default true). */
  workers?: boolean;
  /** Runs before the adapter starts (e.g. to add test-only commands to the registry). */
  prepare?: (app: App) => void;
}

/** A running adapter against the fake. */
export interface DiscordHarness {
  fake: FakeDiscord;
  app: App;
  adapter: DiscordAdapter;
  web: WebServer;
  config: Config;
  /** Base URL of Deckhand's HTTP server (HTTP mode). */
  webUrl: string;
  /** Every log line the bot wrote (JSON). */
  logs: string[];
  adminId: string;
  strangerId: string;
  /** The conversation id of the fake's guild channel. */
  channelConversationId: string;
  /** Where a user acts: the fake's guild channel (or a DM with `dm: true`). */
  place(userId?: string, options?: { dm?: boolean }): InteractionPlace;
  /** Signs a body like Discord does (HTTP mode). */
  signed(body: string, timestamp?: string): Record<string, string>;
  close(): Promise<void>;
}

/** Starts the fake, the core and the adapter. */
export async function startDiscordHarness(options: HarnessOptions = {}): Promise<DiscordHarness> {
  const fake = await startFakeDiscord();
  const adminId = snowflake();
  const strangerId = snowflake();
  let privateKey: KeyObject | undefined;
  const env: Record<string, string> = {
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: testPrefix(),
    SANDBOX_STEP_MS: '20',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-discord-')),
    LOG_LEVEL: 'debug',
    DISCORD_TOKEN: fake.token,
    DISCORD_APPLICATION_ID: fake.identity.applicationId,
    DISCORD_API_URL: fake.apiUrl,
    ADMINS: `discord:${adminId}`,
    ...options.env,
  };
  if (options.mode === 'http') {
    const pair = generateKeyPairSync('ed25519');
    privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' });
    env.DISCORD_PUBLIC_KEY = Buffer.from(jwk.x as string, 'base64url').toString('hex');
  }
  const config = loadConfig(env);
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: 'debug' }, sink);
  const core = await startAdapterCore({
    config,
    logger,
    role: options.mode === 'worker' ? 'worker' : 'all',
    workers: options.workers !== false,
    prepare: options.prepare,
    create: (context) =>
      new DiscordAdapter(context, {
        rest: { retries: 0, timeout: 5000 },
        ackAfterMs: 300,
        ...options.adapter,
      }),
  });
  const { app, web, adapter } = core;
  const webPort = await web.listen(0, '127.0.0.1');
  return {
    fake,
    app,
    adapter,
    web,
    config,
    webUrl: `http://127.0.0.1:${webPort}`,
    logs,
    adminId,
    strangerId,
    place(userId = adminId, placeOptions = {}) {
      return {
        applicationId: fake.identity.applicationId,
        ...(placeOptions.dm ? {} : { guildId: fake.identity.guildId }),
        channelId: placeOptions.dm ? snowflake() : fake.identity.channelId,
        user: {
          id: userId,
          username: userId === adminId ? 'ada' : 'stranger',
          globalName: userId === adminId ? 'Ada' : 'Stranger',
        },
      };
    },
    signed(body, timestamp = String(Math.floor(Date.now() / 1000))) {
      if (!privateKey) throw new Error('signed() needs mode: http');
      return {
        'content-type': 'application/json',
        'x-signature-timestamp': timestamp,
        'x-signature-ed25519': sign(null, Buffer.from(timestamp + body), privateKey).toString('hex'),
      };
    },
    channelConversationId: conversationId({
      platform: 'discord',
      workspace: fake.identity.guildId,
      channel: fake.identity.channelId,
    }),
    async close() {
      await core.close();
      await fake.close();
    },
  };
}
