/**
 * The one-time move from the untagged key layout: queued jobs, lanes, tails and the secret index
 * written under the old names are found under the new ones, and an older Deckhand writing the old
 * queue names again afterwards is refused with one line.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log';
import { closeQueues, openQueues, untaggedBullPrefix } from '../../src/queue/queues';
import { TailState, tailKey } from '../../src/queue/tail-state';
import { KeyLayoutError } from '../../src/store/key-layout';
import { layoutKey, prepareKeyLayout } from '../../src/store/key-migration';
import { SecretIndex } from '../../src/store/secret-index';
import { testPrefix, testRedisOptions } from '../support/redis';

let redis: Redis;
const prefix = testPrefix();
const topology = { kind: 'node', url: 'redis://unused' } as const;

beforeAll(() => {
  // The untagged layout only ever ran on one node: always the test redis-server, in a cluster run too.
  redis = new Redis(testRedisOptions());
});
afterAll(async () => {
  await redis.quit();
});

describe('moving keys to the hash-tagged layout', () => {
  it('carries queued jobs, lanes, tails and the secret index over, once', async () => {
    const old = new Queue('commands', { connection: redis, prefix: untaggedBullPrefix(prefix) });
    await old.add('command', { n: 1 }, { jobId: 'cmd-old' });
    await old.close();
    await redis.rpush(`${prefix}cmd:lane:slack:T1:C1|slack:T1:U1`, 'cmd-old');
    await redis.rpush(`${prefix}tail:tail-1:lines`, 'line one');
    await redis.set(`${prefix}tail:tail-1:cursor`, JSON.stringify({ lines: 1 }));
    const key = Buffer.alloc(32, 7);
    const index = new SecretIndex(redis, { key, prefix });
    const secret = 'e3b0c442-98fc-1c14-9afb-f4c8996fb924';
    await index.register(secret);
    // The index as the untagged layout stored it: move its keys back to the old names.
    for (const k of await redis.keys(`${prefix}secrets:*`))
      await redis.rename(k, k.replace(/\{([^}]+)\}/, '$1'));
    expect(await redis.keys(`${prefix}secrets:{*`)).toEqual([]);

    await prepareKeyLayout({ redis, topology }, prefix, silentLogger);

    const queues = openQueues(redis, prefix);
    try {
      expect((await queues.commands.getJob('cmd-old'))?.data).toEqual({ n: 1 });
    } finally {
      await closeQueues(queues);
    }
    expect(await redis.lrange(`${prefix}cmd:lane:{commands}:slack:T1:C1|slack:T1:U1`, 0, -1)).toEqual([
      'cmd-old',
    ]);
    const tail = new TailState(redis, tailKey(prefix, 'tail-1'));
    expect(await tail.transcript()).toEqual(['line one']);
    expect(await tail.cursor()).toEqual({ lines: 1 });
    const restarted = new SecretIndex(redis, { key, prefix });
    expect(await restarted.scrubTexts([`token ${secret}`])).toEqual(['token [redacted]']);
    expect(await redis.get(layoutKey(prefix))).toBe('tagged-1');
    expect(await redis.keys(`${untaggedBullPrefix(prefix)}:commands:*`)).toEqual([]);
  });

  it('refuses to start when an older Deckhand writes the untagged queues again', async () => {
    const old = new Queue('watch', { connection: redis, prefix: untaggedBullPrefix(prefix) });
    await old.add('watch', {}, { jobId: 'w1' });
    await old.close();
    const refused = prepareKeyLayout({ redis, topology }, prefix, silentLogger);
    await expect(refused).rejects.toThrow(KeyLayoutError);
    await expect(refused).rejects.toThrow(/a Deckhand of an older version still runs on it/);
  });
});
