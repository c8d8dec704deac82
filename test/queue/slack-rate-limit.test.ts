/**
 * Slack's posting limit is per channel: one channel's `429 Retry-After` must delay that channel only.
 * A real worker process (test/support/platform-worker.ts, the core with `--role worker` and the real
 * Slack adapter) fans one build's end out to 40 subscribed channels; the fake Slack refuses the first
 * post in a quarter of them with `429 Retry-After: RETRY_AFTER_S`. The Retry-After is a parameter
 * (`SLACK_RETRY_AFTER_S`): the suite waits a few seconds; run it with 45 for the real-world figure.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bullPrefix, notifyJobId } from '../../src/queue/queues';
import { SubscriptionStore } from '../../src/store/subscriptions';
import { slackEnv } from '../fakes/slack/harness';
import { FakeSlack } from '../fakes/slack/server';
import { processEnv } from '../support/process-env';
import { testRedisOptions } from '../support/redis';
import { waitFor } from '../support/wait';
import { wallClockMs } from '../support/wall-clock';
import { buildEnded } from '../support/watch-events';
import { bundleWorker, type WorkerBundle } from '../support/worker-bundle';

const CHANNELS = 40;
/** The Retry-After of the refused posts (s): `SLACK_RETRY_AFTER_S=45` measures the real-world case. */
const RETRY_AFTER_S = Number(process.env.SLACK_RETRY_AFTER_S ?? 4);

let bundle: WorkerBundle;
let fake: FakeSlack;
let connection: Redis;

beforeAll(async () => {
  bundle = await bundleWorker();
  fake = await FakeSlack.start();
}, 120_000);
afterAll(async () => {
  await bundle?.stopAll('SIGTERM');
  await connection?.quit();
  await fake?.close();
  bundle?.remove();
}, 60_000);

describe('announcements on Slack under per-channel rate limits', () => {
  it(`Retry-After ${RETRY_AFTER_S} s on a quarter of the channels delays those channels only: all ${CHANNELS} announced once, within 1.1 × Retry-After plus the fan-out`, async () => {
    const env = { ...processEnv({ lockMs: 2000, dataDir: 'deckhand-ratelimit-' }), ...slackEnv(fake) };
    const prefix = env.REDIS_KEY_PREFIX;
    connection = new Redis(testRedisOptions());
    const channels = Array.from({ length: CHANNELS }, (_, i) => `C0RL${String(i).padStart(4, '0')}`);
    const limited = new Set(channels.filter((_, i) => i % 4 === 0));
    const subscriptions = new SubscriptionStore(connection, prefix);
    for (const channel of channels) {
      await subscriptions.put({
        conversationId: `slack:${fake.options.teamId}:${channel}`,
        platform: 'slack',
        tool: 'mytool',
        kinds: ['builds'],
        failuresOnly: false,
        changesOnly: false,
        createdBy: 'slack:UADMIN',
      });
    }
    for (const channel of limited) {
      fake.scriptFor('chat.postMessage', (form) => form.channel === channel, {
        status: 429,
        retryAfter: RETRY_AFTER_S,
      });
    }
    const loaded = await bundle.load(env);
    await loaded.go();

    const notify = new Queue('notify', { connection, prefix: bullPrefix(prefix, 'notify') });
    const event = buildEnded(`rl-${prefix.slice(1, 6)}`);
    const started = wallClockMs();
    await notify.add('event', event, { jobId: notifyJobId(event) });
    const shown = (channel: string) =>
      fake.channelMessages(channel).filter((m) => JSON.stringify(m).includes(`build ${event.id}`)).length;
    await waitFor(() => channels.every((c) => shown(c) >= 1), 120_000, 50);
    // Let any late duplicate show itself: every delivery job has ended.
    const deliver = new Queue('deliver-slack', { connection, prefix: bullPrefix(prefix, 'deliver-slack') });
    await waitFor(async () => {
      const counts = await deliver.getJobCounts('wait', 'active', 'delayed');
      return (counts.wait ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) === 0;
    }, 30_000);
    await deliver.close();
    await notify.close();

    const posts = fake.callsOf('chat.postMessage').filter((c) => channels.includes(c.form.channel ?? ''));
    const refused = posts.filter((c) => c.status === 429);
    const accepted = posts.filter((c) => c.status === 200);
    const acceptedAt = (channel: string) => accepted.find((c) => c.form.channel === channel)?.at as number;
    // 0 lost, 0 doubled; each limited channel was refused once, as scripted.
    expect(channels.map(shown)).toEqual(Array(CHANNELS).fill(1));
    expect(refused.map((c) => c.form.channel).sort()).toEqual([...limited].sort());
    const retryMs = RETRY_AFTER_S * 1000;
    const firstRefusal = Math.min(...refused.map((c) => c.at));
    const free = channels.filter((c) => !limited.has(c));
    // The other channels did not wait for anyone's Retry-After (a client that pauses its whole queue
    // posts to the channels after the first refusal only once that Retry-After has passed).
    for (const channel of free) expect(acceptedAt(channel), channel).toBeLessThan(firstRefusal + retryMs);
    // Each limited channel waited its own Retry-After, and not much more.
    for (const call of refused) {
      expect(acceptedAt(call.form.channel as string) - call.at).toBeGreaterThanOrEqual(retryMs - 50);
    }
    const fanOutMs = Math.max(...free.map(acceptedAt)) - started;
    const allMs = Math.max(...accepted.map((c) => c.at)) - started;
    console.info(
      `Retry-After ${RETRY_AFTER_S} s on ${limited.size} of ${CHANNELS} channels: fan-out ${Math.round(fanOutMs)} ms, every channel announced after ${Math.round(allMs)} ms (bound 1.1 × ${retryMs} + ${Math.round(fanOutMs)} ms)`,
    );
    expect(allMs).toBeLessThanOrEqual(1.1 * retryMs + fanOutMs);
    expect(fake.violations).toEqual([]);
  }, 240_000);
});
