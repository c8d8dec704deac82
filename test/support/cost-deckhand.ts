import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { type CostDeckhand, startCostDeckhand } from '../../bench/lib/cost-deckhand';
import { countRedisCalls } from './redis-calls';
import { startTestRedis, type TestRedis } from './redis-server';

/** A web + worker pair on a Redis server of its own, an admin client of that server, and a call counter. */
export interface CostRig {
  deckhand: CostDeckhand;
  admin: Redis;
  counter: ReturnType<typeof countRedisCalls>;
}

/**
 * Starts, before the file's tests, a Redis server of its own (INFO commandstats counts every client
 * of a server) and a web + worker pair on it under `prefix`; hands them to `onStarted`; stops all
 * after the tests.
 */
export function useCostDeckhand(prefix: string, onStarted: (rig: CostRig) => void): void {
  const counter = countRedisCalls();
  let redis: TestRedis | undefined;
  let admin: Redis | undefined;
  let deckhand: CostDeckhand | undefined;
  beforeAll(async () => {
    redis = await startTestRedis();
    admin = new Redis({ host: redis.host, port: redis.port });
    deckhand = await startCostDeckhand({ redisPort: redis.port, prefix });
    onStarted({ deckhand, admin, counter });
  });
  afterAll(async () => {
    await deckhand?.close();
    counter.stop();
    admin?.disconnect();
    await redis?.stop();
  });
}
