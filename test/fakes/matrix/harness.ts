/**
 * Deckhand with its Matrix adapter against the fake homeserver and the sandbox: the whole core
 * (runner, BullMQ workers, Redis) plus the real adapter wired only by configuration
 * (`MATRIX_HOMESERVER_URL`, `MATRIX_USER_ID`, a token or password), as `deckhand start` wires it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { MatrixAdapter, type MatrixAdapterOptions } from '../../../adapters/matrix/adapter';
import { type Config, loadConfig } from '../../../src/config';
import type { AnyCommand } from '../../../src/core/command';
import type { App } from '../../../src/wiring';
import { startAdapterCore } from '../../support/adapter-core';
import { testPrefix, testRedisUrl } from '../../support/redis';
import { waitFor } from '../../support/wait';
import { People } from './people';
import { type FakeHomeserver, startFakeHomeserver } from './server';

/** The people of the tests. */
export const MX_USERS = {
  admin: '@ada:fake.test',
  maintainer: '@max:fake.test',
  stranger: '@sam:fake.test',
  outsider: '@eve:elsewhere.test',
} as const;

/** Options of {@link startMatrixDeckhand}. */
export interface MatrixHarnessOptions {
  env?: Record<string, string>;
  adapter?: MatrixAdapterOptions;
  commands?: AnyCommand<never>[];
  /** Sign in with the password instead of the token. */
  password?: boolean;
  /** `web`: commands go through the command queue to the workers (this process runs them too). */
  role?: 'web' | 'all';
  /** Prepares the fake before Deckhand starts (e.g. a rate-limited login). */
  before?: (fake: FakeHomeserver) => void;
}

/** A running Deckhand served over the fake homeserver. */
export interface MatrixDeckhand {
  fake: FakeHomeserver;
  people: People;
  app: App;
  adapter: MatrixAdapter;
  config: Config;
  close(): Promise<void>;
}

/** Starts the fake homeserver, the core on the sandbox and the Matrix adapter. */
export async function startMatrixDeckhand(options: MatrixHarnessOptions = {}): Promise<MatrixDeckhand> {
  const fake = await startFakeHomeserver();
  options.before?.(fake);
  const config = loadConfig({
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: testPrefix(),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-mx-')),
    SANDBOX_STEP_MS: '20',
    LOG_LEVEL: 'silent',
    MATRIX_HOMESERVER_URL: fake.url,
    MATRIX_USER_ID: fake.botUserId,
    ...(options.password ? { MATRIX_PASSWORD: 'bot-password' } : { MATRIX_ACCESS_TOKEN: fake.botToken }),
    ADMINS: `matrix:${MX_USERS.admin}`,
    TOOL_MAINTAINERS: `mytool=matrix:${MX_USERS.maintainer}`,
    ...options.env,
  });
  const logger = pino({ level: process.env.TEST_LOG ?? 'silent' });
  // `web` too runs the workers: commands go through the queue, and this process runs them.
  const core = await startAdapterCore({
    config,
    logger,
    role: options.role ?? 'all',
    workers: true,
    commands: options.commands,
    create: (context) => new MatrixAdapter(context, { syncTimeoutMs: 5000, ...options.adapter }),
  });
  return {
    fake,
    people: new People(fake),
    app: core.app,
    adapter: core.adapter,
    config,
    async close() {
      await core.close();
      await fake.close();
      rmSync(config.DATA_DIR, { recursive: true, force: true });
    },
  };
}

/** Invites the bot to a new room of the admin's named `name`; resolves with the room's id once the bot has joined. */
export async function roomWithBot(t: MatrixDeckhand, name: string): Promise<string> {
  const room = t.people.inviteBot(MX_USERS.admin, name);
  await waitFor(() => t.people.botJoined(room));
  return room;
}
