import type { TestProject } from 'vitest/node';
import { ensureBuilt } from './build';
import { startTestRedis, type TestRedis } from './redis-server';
import { startTestCluster, type TestCluster } from './redis-topologies';

let redis: TestRedis | undefined;
let cluster: TestCluster | undefined;

/** Builds dist/ when stale and starts one redis-server for the whole run; tests reach it through `inject('redis')`. */
export async function setup(project: TestProject): Promise<void> {
  // Tests that spawn bin/deckhand.mjs run the compiled dist/, as production does: build it when stale.
  ensureBuilt();
  redis = await startTestRedis();
  project.provide('redis', { host: redis.host, port: redis.port });
  // DECKHAND_TEST_REDIS=cluster: the tests that take their Redis from test/support/redis.ts
  // (testRedis, testRedisUrl) run against a 3+3 Redis Cluster instead.
  if (process.env.DECKHAND_TEST_REDIS === 'cluster') {
    cluster = await startTestCluster();
    project.provide('redisCluster', cluster.nodes);
  } else project.provide('redisCluster', []);
}

export async function teardown(): Promise<void> {
  await redis?.stop();
  await cluster?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    redis: { host: string; port: number };
    /** Nodes of the test Redis Cluster (`DECKHAND_TEST_REDIS=cluster`), else empty. */
    redisCluster: string[];
  }
}
