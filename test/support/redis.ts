import { randomBytes } from 'node:crypto';
import { type Cluster, Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll, inject } from 'vitest';
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
 * A {@link testRedis} connection for the file's tests: opened before them and handed to `onOpened`
 * (which may seed it), closed after them.
 */
export function useTestRedis(onOpened: (redis: Redis) => void | Promise<void>): void {
  let redis: Redis | undefined;
  beforeAll(async () => {
    redis = testRedis();
    await onOpened(redis);
  });
  afterAll(async () => {
    await redis?.quit();
  });
}

/**
 * Everything stored under `prefix`, as one string: each key, then each value (strings, hashes, sets,
 * lists, sorted sets and streams), for tests that prove a secret is not readable in Redis.
 */
export async function storedUnder(redis: Redis, prefix: string): Promise<string> {
  const keys = await allKeys(redis, `${prefix}*`);
  const values: string[] = [];
  for (const key of keys) {
    const type = await redis.type(key);
    if (type === 'string') values.push((await redis.get(key)) ?? '');
    if (type === 'hash') values.push(JSON.stringify(await redis.hgetall(key)));
    if (type === 'set') values.push(...(await redis.smembers(key)));
    if (type === 'list') values.push(...(await redis.lrange(key, 0, -1)));
    if (type === 'zset') values.push(...(await redis.zrange(key, 0, -1)));
    if (type === 'stream') values.push(JSON.stringify(await redis.xrange(key, '-', '+')));
  }
  return [...keys, ...values].join('\n');
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
