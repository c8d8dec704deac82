import { randomBytes } from 'node:crypto';
import { type Cluster, Redis, type RedisOptions } from 'ioredis';
import { inject } from 'vitest';
import { connectRedis, isCluster } from '../../src/store/redis-connect';
import { type RedisTopology, redisTopology } from '../../src/store/redis-topology';

/**
 * Connection options for the test Redis: the database is this vitest worker's pool id, and every
 * caller should also use {@link testPrefix} so files sharing a worker never see each other's keys.
 */
export function testRedisOptions(): RedisOptions {
  const { host, port } = inject('redis');
  return { host, port, db: Number(process.env.VITEST_POOL_ID ?? 1) % 64, maxRetriesPerRequest: null };
}

/**
 * The test Redis as Deckhand's configuration names it: the test Cluster when the run has one
 * (`DECKHAND_TEST_REDIS=cluster`), else this worker's database of the test redis-server.
 */
export function testRedisUrl(): string {
  const cluster = inject('redisCluster');
  if (cluster.length > 0) return `redis+cluster://${cluster.join(',')}`;
  const { host, port, db } = testRedisOptions();
  return `redis://${host}:${port}/${db}`;
}

/** A fresh connection to the test Redis (a Cluster client in a cluster run). Close it in `afterAll`. */
export function testRedis(): Redis {
  const cluster = inject('redisCluster');
  if (cluster.length === 0) return new Redis(testRedisOptions());
  const topology = redisTopology({ REDIS_URL: testRedisUrl() }) as RedisTopology;
  return connectRedis(topology, { maxRetriesPerRequest: null });
}

/**
 * A Deckhand process's Redis settings: this worker's database of the test redis-server (never the
 * Cluster) and a key prefix, fresh unless given.
 */
export function testRedisEnv(prefix = testPrefix()): { REDIS_URL: string; REDIS_KEY_PREFIX: string } {
  const { host, port, db } = testRedisOptions();
  return { REDIS_URL: `redis://${host}:${port}/${db}`, REDIS_KEY_PREFIX: prefix };
}

/** A unique key prefix for one test file. */
export function testPrefix(): string {
  return `t${randomBytes(4).toString('hex')}:`;
}

/** Every key matching `pattern`, from every master of a Cluster (KEYS reaches one node only). */
export async function allKeys(redis: Redis, pattern: string): Promise<string[]> {
  if (!isCluster(redis)) return redis.keys(pattern);
  const masters = (redis as unknown as Cluster).nodes('master');
  return (await Promise.all(masters.map((node) => node.keys(pattern)))).flat();
}
