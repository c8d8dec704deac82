/**
 * One SAL line per change through worker crashes. As in crash-effects.test.ts: a `--role web` core
 * (this process: the Slack adapter verifies, acks and queues) and `--role worker` processes (the
 * bundled test/support/platform-worker.ts, whose SAL outbox is a Redis list any process may add to,
 * one line per id). Each round the sandbox carries `/jobs restart demo api` out and holds its answer;
 * the worker is SIGKILLed once the request arrived, the next worker takes the command over. Per round:
 * exactly one `!log tools.demo …` line that stashbot's rules log as the restart.
 */
import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackEnv } from '../fakes/slack/harness';
import { FakeSlack } from '../fakes/slack/server';
import { processEnv } from '../support/process-env';
import { RedisOutbox } from '../support/sal-outbox';
import { closeAll } from '../support/started';
import { loggedBySal } from '../support/stashbot-sal';
import { waitFor } from '../support/wait';
import { type SlackWebProcess, startSlackWebProcess } from '../support/web-process';
import {
  bundleWorker,
  type LoadedWorker,
  preloadedWorkers,
  type WorkerBundle,
} from '../support/worker-bundle';
import { sandboxEnv, stopWorker } from '../support/worker-process';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const SIGNING_SECRET = 'crash-sal-signing-secret-000001';
const ADMIN = { id: 'UADMIN', name: 'ada' };
const RESTART = /^\/jobs\/v1\/tool\/demo\/jobs\/api\/restart$/;

let sandbox: ToolhostSandbox;
let bundle: WorkerBundle;
let slack: FakeSlack;
let web: SlackWebProcess;
let outbox: RedisOutbox;
let workers: ReturnType<typeof preloadedWorkers>;
let current: LoadedWorker | undefined;

async function nextWorker(): Promise<void> {
  current = await workers.nextStarted();
}

beforeAll(async () => {
  sandbox = await startToolhostSandbox({ stepMs: 20 });
  bundle = await bundleWorker();
  slack = await FakeSlack.start();
  const shared = processEnv({ lockMs: 1000, watchPollMs: 100 });
  const outboxKey = `${shared.REDIS_KEY_PREFIX}test-sal-outbox`;
  const env = {
    ...shared,
    ...sandboxEnv(sandbox),
    ...slackEnv(slack, SIGNING_SECRET),
    ADMINS: `slack:${ADMIN.id}`,
    SAL_DEFAULT: 'on',
    DECKHAND_TEST_SAL_OUTBOX: outboxKey,
  };
  web = await startSlackWebProcess(env, slack);
  outbox = new RedisOutbox(web.app.redis.redis, outboxKey);
  workers = preloadedWorkers(bundle, env);
  await nextWorker();
}, 180_000);

afterAll(async () => {
  await bundle?.stopAll('SIGKILL');
  await closeAll(web, slack, sandbox);
  bundle?.remove();
}, 60_000);

describe('a worker SIGKILLed mid-command', () => {
  it(`still gives one SAL line per command, ${ROUNDS} rounds`, async () => {
    const records: number[] = [];
    for (let n = 0; n < ROUNDS; n += 1) {
      const channel = `C0SAL${n}`;
      const held = sandbox.controls.holdNext('POST', RESTART);
      const since = Date.now();
      const delivered = await web.driver.sendCommand(
        web.driver.commandFields(ADMIN, channel, '/jobs restart demo api'),
      );
      expect(delivered.status).toBe(200);
      await held.arrived;
      await stopWorker((current as LoadedWorker).child, 'SIGKILL');
      held.release();
      await nextWorker();
      // The line of this round, once the next worker finished the command.
      await waitFor(async () => ((await outbox.lines()).length === n + 1 ? true : undefined), 60_000, 50);
      await waitFor(async () => (await web.app.queues.commands.getActiveCount()) === 0, 30_000, 50);
      const audited = (await web.app.services.accounts.audit.recent({ tool: 'demo', limit: 10 })).filter(
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
      const out = loggedBySal(line, ['tools.demo'], channel);
      expect(out, line).toMatchObject({ project: 'tools.demo' });
      expect(out.message).toMatch(/^ada \(slack\) restarted the job job=api \(http/);
    }
  }, 300_000);
});
