/**
 * Commands on the queue: a `--role web` Deckhand (this process: the real Slack adapter on
 * Bolt, no queue workers) verifies, dedupes, acks and queues; a `--role worker` process (the bundled
 * test/support/platform-worker.ts) runs the command and posts and edits its card. Both share Redis
 * and the toolhost sandbox (a real HTTP server), and the fake Slack records what users see.
 */
import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bullPrefix } from '../../src/queue/queues';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import { type SlackBot, slackEnv, startSlackBot, USERS } from '../fakes/slack/harness';
import { FakeSlack } from '../fakes/slack/server';
import { processEnv } from '../support/process-env';
import { testRedisOptions } from '../support/redis';
import { closeAll } from '../support/started';
import { waitFor } from '../support/wait';
import { bundleWorker, type WorkerBundle } from '../support/worker-bundle';
import { sandboxEnv, stopWorker } from '../support/worker-process';

let sandbox: ToolhostSandbox;
let platform: ToolhostClientFactory;
let bundle: WorkerBundle;
let fake: FakeSlack;
let web: SlackBot;
let env: Record<string, string>;
let connection: Redis;
let commands: Queue;

beforeAll(async () => {
  sandbox = await startToolhostSandbox({ stepMs: 300 });
  platform = ToolhostClientFactory.forSandbox(sandbox);
  bundle = await bundleWorker();
  fake = await FakeSlack.start();
  const shared = processEnv({ lockMs: 1000, watchPollMs: 100 });
  const prefix = shared.REDIS_KEY_PREFIX;
  env = {
    ...shared,
    ...sandboxEnv(sandbox),
    ...slackEnv(fake),
    ADMINS: `slack:${USERS.admin.id}`,
    TOOL_MAINTAINERS: `mytool=slack:${USERS.maintainer.id}`,
  };
  web = await startSlackBot({ role: 'web', fake, prefix, env });
  connection = new Redis(testRedisOptions());
  commands = new Queue('commands', { connection, prefix: bullPrefix(prefix, 'commands') });
}, 120_000);

afterEach(async () => {
  await bundle.stopAll('SIGTERM');
  expect(fake.violations).toEqual([]);
});

afterAll(async () => {
  await commands?.close();
  await connection?.quit();
  await closeAll(web, fake, platform, sandbox);
  bundle?.remove();
}, 60_000);

const worker = () => bundle.load(env);

const cardsIn = (channel: string) => fake.channelMessages(channel);
const deployments = async (tool: string) =>
  (await platform.forTool(tool).components.listDeployments()).length;

describe('commands on the queue', () => {
  it('a command received by a web-only process is run by a worker-only process, which posts and edits its card', async () => {
    const idle = await worker();
    const before = await deployments('mytool');
    const answer = await web.driver.command(USERS.maintainer, 'C0SPLIT', '/deploy mytool');
    expect(answer.status).toBe(200);
    // Acknowledged and queued by the web process; nothing runs there.
    await waitFor(async () => (await commands.getJobCounts('wait')).wait === 1, 10_000);
    expect(cardsIn('C0SPLIT')).toHaveLength(0);
    expect(await deployments('mytool')).toBe(before);

    await idle.go();
    const card = await waitFor(() => {
      const m = cardsIn('C0SPLIT')[0];
      return m && JSON.stringify(m.attachments).includes(':white_check_mark:') ? m : undefined;
    }, 60_000);
    expect(await deployments('mytool')).toBe(before + 1);
    expect(cardsIn('C0SPLIT')).toHaveLength(1);
    // The card was edited in place by the worker (the web process runs no queue workers).
    expect(fake.callsOf('chat.update').some((call) => call.body.ts === card.ts)).toBe(true);
  }, 120_000);

  it('a worker killed mid-command: the command runs once more, the deployment is started once and its card posted once', async () => {
    const first = await worker();
    await first.go();
    const next = await worker();
    const before = await deployments('demo');
    const held = fake.holdNext('chat.postMessage');
    await web.driver.command(USERS.admin, 'C0CRASH', '/deploy demo');
    await held.arrived;
    // Positive controls: the deployment exists and the card was posted before the kill.
    expect(await deployments('demo')).toBe(before + 1);
    expect(cardsIn('C0CRASH')).toHaveLength(1);
    const [job] = await commands.getJobs(['active']);
    expect(job).toBeDefined();
    await stopWorker(first.child, 'SIGKILL');
    await waitFor(() => held.dropped, 10_000);

    await next.go();
    const id = job?.id as string;
    await waitFor(async () => (await commands.getJobState(id)) === 'completed', 60_000, 50);
    const done = await commands.getJob(id);
    expect(done?.stalledCounter).toBe(1);
    expect(await deployments('demo')).toBe(before + 1);
    expect(cardsIn('C0CRASH')).toHaveLength(1);
    await waitFor(
      () => JSON.stringify(cardsIn('C0CRASH')[0]?.attachments).includes(':white_check_mark:'),
      60_000,
    );
  }, 120_000);

  it("keeps a person's commands in one conversation in order, while others' run meanwhile", async () => {
    const loaded = await worker();
    await loaded.go();
    const held = fake.holdNext('chat.postMessage');
    await web.driver.command(USERS.maintainer, 'C0ORDER', '/deploy mytool --description first');
    await held.arrived;
    await web.driver.command(USERS.maintainer, 'C0ORDER', '/jobs list mytool');
    // Another person's command in the same channel is answered while the first one is held: the
    // worker is free, so the second command's absence below is its turn being kept.
    await web.driver.command(USERS.admin, 'C0ORDER', '/jobs list demo');
    await waitFor(() => cardsIn('C0ORDER').length === 2, 30_000);
    // The second command was taken up and put back to wait for its turn (more than once).
    await waitFor(async () => (await commands.getJobs(['delayed'])).length === 1, 30_000);
    await waitFor(async () => (await commands.getJobs(['delayed'])).length === 0, 30_000);
    await waitFor(async () => (await commands.getJobs(['delayed'])).length === 1, 30_000);
    expect(cardsIn('C0ORDER')).toHaveLength(2);
    expect(JSON.stringify(cardsIn('C0ORDER')[1]?.attachments)).toContain('demo');

    held.release();
    await waitFor(() => cardsIn('C0ORDER').length === 3, 30_000);
    const [firstCard, , second] = cardsIn('C0ORDER');
    expect(Number(second?.ts)).toBeGreaterThan(Number(firstCard?.ts));
    expect(JSON.stringify(second?.attachments)).toContain('mytool');
  }, 120_000);
});
