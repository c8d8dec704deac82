/**
 * A personal direct message through a crash, on the Slack fake with real worker processes (the core
 * with `--role worker` and the real Slack adapter, test/support/platform-worker.ts). The end of work
 * is observed (its fan-out job is queued, carrying who started it); a worker decides, opens the
 * starter's direct conversation (`conversations.open`) and posts; the fake carries the post out but
 * holds its answer, and the worker is SIGKILLed then. The next worker takes the stalled delivery over
 * and finds the message by its delivery key: the starter sees exactly one message per round.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { ChatUser } from '../../src/core/command';
import type { WatchEvent } from '../../src/core/watch';
import { directJob } from '../../src/queue/personal-delivery';
import { bullPrefix, deliverQueueOf, notifyJobId } from '../../src/queue/queues';
import { slackEnv } from '../fakes/slack/harness';
import { FakeSlack } from '../fakes/slack/server';
import { processEnv } from '../support/process-env';
import { testRedisOptions } from '../support/redis';
import { waitFor } from '../support/wait';
import { buildEnded } from '../support/watch-events';
import { preloadedWorkers, useWorkerBundle } from '../support/worker-bundle';
import { stopWorker } from '../support/worker-process';

const ROUNDS = 3;

const bundle = useWorkerBundle();

describe('a direct message whose worker is killed (SIGKILL) while Slack holds the post answer', () => {
  it(`reaches the starter exactly once per round (${ROUNDS} rounds), in their direct conversation`, async () => {
    const fake = await FakeSlack.start();
    const env = { ...processEnv({ lockMs: 500, dataDir: 'deckhand-crash-dm-' }), ...slackEnv(fake) };
    const prefix = env.REDIS_KEY_PREFIX;
    const starter: ChatUser = { platform: 'slack', workspace: fake.options.teamId, id: 'UADA', name: 'ada' };
    const connection = new Redis(testRedisOptions());
    const notify = new Queue('notify', { connection, prefix: bullPrefix(prefix, 'notify') });
    const deliverName = deliverQueueOf('slack');
    const deliver = new Queue(deliverName, { connection, prefix: bullPrefix(prefix, deliverName) });
    const shown: number[] = [];
    const inDirect = (id: string) =>
      fake.channelMessages('DADA').filter((m) => JSON.stringify(m).includes(`build ${id}`)).length;
    try {
      const workers = preloadedWorkers(bundle(), env);
      let current = await workers.nextStarted();
      for (let round = 0; round < ROUNDS; round += 1) {
        const id = `dm-${round}-${prefix.slice(1, 5)}`;
        const event: WatchEvent = {
          ...buildEnded(id),
          starter: {
            user: starter,
            conversationId: `slack:${fake.options.teamId}:CWORK`,
            startedAt: Date.now() - 120_000,
          },
        };
        const held = fake.holdNext('chat.postMessage');
        // The end was observed: its fan-out job, as the watch queues it.
        await notify.add('event', event, { jobId: notifyJobId(event) });
        await held.arrived;
        // Positive control: the message exists before the crash.
        expect(inDirect(id), `round ${round}: posted before the kill`).toBe(1);
        await stopWorker(current.child, 'SIGKILL');
        await waitFor(() => held.dropped, 5_000, 5);
        current = await workers.nextStarted();
        const jobId = directJob(event, starter).opts.jobId;
        await waitFor(async () => (await deliver.getJobState(jobId)) === 'completed', 60_000, 20);
        shown.push(inDirect(id));
      }
      for (const loaded of await workers.waiting()) await stopWorker(loaded.child, 'SIGKILL');
      await stopWorker(current.child, 'SIGTERM');
    } finally {
      await notify.close();
      await deliver.close();
      await connection.quit();
      await fake.close();
    }
    expect(shown).toEqual(Array(ROUNDS).fill(1));
    // The direct conversation was opened with the starter's id, never anyone else's.
    const opens = fake.callsOf('conversations.open');
    expect(opens.length).toBeGreaterThan(0);
    expect(opens.every((c) => c.form.users === 'UADA')).toBe(true);
    // Each retry looked for the interrupted post by its delivery key instead of posting again blindly.
    expect(fake.callsOf('conversations.history').length).toBeGreaterThanOrEqual(ROUNDS);
    // Nothing was posted anywhere but the starter's direct conversation.
    expect(fake.callsOf('chat.postMessage').every((c) => c.form.channel === 'DADA')).toBe(true);
    expect(fake.violations).toEqual([]);
  }, 300_000);
});
