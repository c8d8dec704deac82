import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { inject } from 'vitest';

/**
 * Connection options for the test Redis: the database is this vitest worker's pool id, and every
 * caller should also use {@link testPrefix} so files sharing a worker never see each other's keys.
 */
export function testRedisOptions(): RedisOptions {
  const { host, port } = inject('redis');
  return { host, port, db: Number(process.env.VITEST_POOL_ID ?? 1) % 64, maxRetriesPerRequest: null };
}

/** A fresh connection to the test Redis. Close it in `afterAll`. */
export function testRedis(): Redis {
  return new Redis(testRedisOptions());
}

/** A unique key prefix for one test file. */
export function testPrefix(): string {
  return `t${randomBytes(4).toString('hex')}:`;
}
