/**
 * One SAL line per change through worker crashes. As in crash-effects.test.ts: a `--role web` core
 * (this process: the Slack adapter verifies, acks and queues) and `--role worker` processes (the
 * bundled test/support/platform-worker.ts, whose SAL outbox is a Redis list any process may add to,
 * one line per id). Each round the sandbox carries `/jobs restart demo api` out and holds its answer;
 * the worker is SIGKILLed once the request arrived, the next worker takes the command over. Per round:
 * exactly one `!log tools.demo …` line that stashbot's rules log as the restart.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSlackAdapter } from '../../adapters/slack/load';
import type { AdapterContext, PlatformAdapter } from '../../adapters/types';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { DeliveryDeduper } from '../../src/store/dedupe';
import { WebServer } from '../../src/web/server';
import { type App, createApp } from '../../src/wiring';
import { SlackDriver } from '../fakes/slack/requests';
import { FakeSlack } from '../fakes/slack/server';
import { testPrefix } from '../support/redis';
import { RedisOutbox } from '../support/sal-outbox';
import { stashbotSal } from '../support/stashbot-sal';
import { waitFor } from '../support/wait';
import { bundleWorker, type LoadedWorker, type WorkerBundle } from '../support/worker-bundle';
import { sandboxEnv, stopWorker } from '../support/worker-process';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const SIGNING_SECRET = 'crash-sal-signing-secret-000001';
const ADMIN = { id: 'UADMIN', name: 'ada' };
const RESTART = /^\/jobs\/v1\/tool\/demo\/jobs\/api\/restart$/;

let sandbox: ToolhostSandbox;
let bundle: WorkerBundle;
let slack: FakeSlack;
let app: App;
let web: WebServer;
let adapter: PlatformAdapter;
let driver: SlackDriver;
let env: Record<string, string>;
let outbox: RedisOutbox;
const children: ChildProcess[] = [];
let upcoming: Promise<LoadedWorker>[] = [];
let current: LoadedWorker | undefined;

async function nextWorker(): Promise<void> {
  const loaded = (await upcoming.shift()) as LoadedWorker;
  upcoming.push(bundle.load(env).then(track));
  await loaded.go();
  current = loaded;
}

function track(loaded: LoadedWorker): LoadedWorker {
  children.push(loaded.child);
  return loaded;
}

beforeAll(async () => {
  sandbox = await startToolhostSandbox({ stepMs: 20 });
  bundle = await bundleWorker();
  slack = await FakeSlack.start();
  const { host, port } = inject('redis');
  const db = Number(process.env.VITEST_POOL_ID ?? 1) % 64;
  const prefix = testPrefix();
  env = {
    ...sandboxEnv(sandbox),
    REDIS_URL: `redis://${host}:${port}/${db}`,
    REDIS_KEY_PREFIX: prefix,
    SECRET_KEY: 'e'.repeat(64),
    LOG_LEVEL: 'silent',
    QUEUE_LOCK_MS: '1000',
    WATCH_POLL_MS: '100',
    ADMINS: `slack:${ADMIN.id}`,
    SAL_DEFAULT: 'on',
    DECKHAND_TEST_SAL_OUTBOX: `${prefix}test-sal-outbox`,
    SLACK_BOT_TOKEN: slack.options.botToken,
    SLACK_API_URL: slack.apiUrl,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
  };
  const config = loadConfig({ ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-crash-sal-')) });
  app = await createApp({ config, logger: silentLogger, sandbox: false });
  outbox = new RedisOutbox(app.redis.redis, env.DECKHAND_TEST_SAL_OUTBOX as string);
  web = new WebServer(silentLogger);
  const context: AdapterContext = {
    app,
    web,
    config,
    logger: silentLogger,
    deduper: new DeliveryDeduper(app.redis.requests, config.REDIS_KEY_PREFIX),
    role: 'web',
  };
  adapter = createSlackAdapter(context) as PlatformAdapter;
  await adapter.start();
  const webPort = await web.listen(0, '127.0.0.1');
  driver = new SlackDriver(slack, {
    kind: 'http',
    url: `http://127.0.0.1:${webPort}/slack/events`,
    signingSecret: SIGNING_SECRET,
  });
  upcoming = [bundle.load(env).then(track), bundle.load(env).then(track)];
  await nextWorker();
}, 180_000);

afterAll(async () => {
  for (const child of children) await stopWorker(child, 'SIGKILL');
  await adapter?.stop();
  await web?.close();
  await app?.close();
  await slack?.close();
  await sandbox?.close();
  bundle?.remove();
}, 60_000);

describe('a worker SIGKILLed mid-command', () => {
  it(`still gives one SAL line per command, ${ROUNDS} rounds`, async () => {
    const records: number[] = [];
    for (let n = 0; n < ROUNDS; n += 1) {
      const channel = `C0SAL${n}`;
      const held = sandbox.controls.holdNext('POST', RESTART);
      const since = Date.now();
      const delivered = await driver.sendCommand(
        driver.commandFields(ADMIN, channel, '/jobs restart demo api'),
      );
      expect(delivered.status).toBe(200);
      await held.arrived;
      await stopWorker((current as LoadedWorker).child, 'SIGKILL');
      held.release();
      await nextWorker();
      // The line of this round, once the next worker finished the command.
      await waitFor(async () => ((await outbox.lines()).length === n + 1 ? true : undefined), 60_000, 50);
      await waitFor(async () => (await app.queues.commands.getActiveCount()) === 0, 30_000, 50);
      const audited = (await app.services.accounts.audit.recent({ tool: 'demo', limit: 10 })).filter(
        (r) => r.at >= since && r.command === 'jobs restart' && r.outcome === 'ok',
      );
      records.push(audited.length);
    }
    const lines = await outbox.lines();
    console.info(
      `SAL through crashes: ${lines.length} lines for ${ROUNDS} commands; ok records per round ${JSON.stringify(records)}; enqueue calls ${await outbox.calls()}`,
    );
    expect(lines).toHaveLength(ROUNDS);
    expect(new Set(lines.map((l) => l.id)).size).toBe(ROUNDS);
    for (const { channel, line } of lines) {
      const out = stashbotSal({ channel, nick: 'deckhand', text: line, projects: new Set(['tools.demo']) });
      expect(out, line).toMatchObject({ kind: 'logged', project: 'tools.demo' });
      expect(out.kind === 'logged' && out.message).toMatch(/^ada \(slack\) restarted the job job=api \(http/);
    }
  }, 300_000);
});
