/**
 * A burst of commands handed over in one turn of the event loop is queued together (issue 17: the
 * web process's acks no longer wait behind a Redis round trip per command): one transaction for the
 * lanes and one `addBulk`, with every job queued and each lane in arrival order — and a failure
 * reaches every caller of the burst.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandJob } from '../../src/core/command-job';
import { BullCommandQueue, commandJobId, laneKey, laneOf } from '../../src/queue/command-queue';
import { bullPrefix } from '../../src/queue/queues';
import { countCalls } from '../support/call-count';
import { testPrefix, testRedis } from '../support/redis';

let redis: Redis;
let queue: Queue;
const prefix = testPrefix();

beforeAll(() => {
  redis = testRedis();
  queue = new Queue('commands', { connection: redis, prefix: bullPrefix(prefix) });
});
afterAll(async () => {
  await queue.close();
  await redis.quit();
});

function job(user: string, n: number): CommandJob {
  return {
    key: `slack:trigger:${prefix}${user}-${n}`,
    platform: 'slack',
    input: { kind: 'text', text: `/deploy mytool ${n}` },
    invocation: {
      user: { platform: 'slack', id: user, name: user, workspace: 'T1' },
      conversation: { platform: 'slack', workspace: 'T1', channel: 'C1' },
      conversationId: 'slack:T1:C1',
      isPrivate: false,
    },
    place: { channel: 'C1' },
  } as CommandJob;
}

describe('command queue bursts', () => {
  it('queues a burst with one transaction and one addBulk, every job present and each lane in order', async () => {
    const { counted, calls: transactions } = countCalls(redis, 'multi');
    const commands = new BullCommandQueue(queue, counted, prefix);
    const burst = [
      ...Array.from({ length: 12 }, (_, n) => job('UA', n)),
      ...[0, 1, 2].map((n) => job('UB', n)),
    ];
    await Promise.all(burst.map((j) => commands.enqueue(j)));
    expect(transactions()).toBe(1);
    for (const j of burst) expect(await queue.getJob(commandJobId(j.key))).toBeDefined();
    const laneA = await redis.lrange(laneKey(prefix, laneOf(job('UA', 0))), 0, -1);
    expect(laneA).toEqual(burst.slice(0, 12).map((j) => commandJobId(j.key)));
    // The first of each lane found it empty: it is the head, and says so; the ones behind it do not.
    const heads = await Promise.all(
      burst.map(async (j) => (await queue.getJob(commandJobId(j.key)))?.data.laneHead),
    );
    expect(heads).toEqual(burst.map((_, n) => (n === 0 || n === 12 ? true : undefined)));
    // A later command is a burst of its own.
    await commands.enqueue(job('UA', 99));
    expect(transactions()).toBe(2);
  });

  it('tells every caller of a burst when it could not be queued', async () => {
    const broken = new Queue('commands', { connection: redis, prefix: bullPrefix(prefix) });
    broken.addBulk = () => Promise.reject(new Error('Redis went away'));
    const commands = new BullCommandQueue(broken, redis, prefix);
    const results = await Promise.allSettled([job('UC', 1), job('UC', 2)].map((j) => commands.enqueue(j)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await broken.close();
  });
});
