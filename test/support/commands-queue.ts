import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { bullPrefix } from '../../src/queue/queues';
import { testRedis } from './redis';

/**
 * The `commands` queue on the test Redis under `prefix`, with its connection, for a test file that
 * works with command jobs directly; both are closed after the file's tests.
 */
export function commandsQueueForTests(prefix: string): { redis: Redis; queue: Queue } {
  const redis = testRedis();
  const queue = new Queue('commands', { connection: redis, prefix: bullPrefix(prefix, 'commands') });
  afterAll(async () => {
    await queue.close();
    await redis.quit();
  });
  return { redis, queue };
}
