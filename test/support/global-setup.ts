import type { TestProject } from 'vitest/node';
import { ensureBuilt } from './build';
import { startTestRedis, type TestRedis } from './redis-server';

let redis: TestRedis | undefined;

/** Builds dist/ when stale and starts one redis-server for the whole run; tests reach it through `inject('redis')`. */
export async function setup(project: TestProject): Promise<void> {
  // Tests that spawn bin/deckhand.mjs run the compiled dist/, as production does: build it when stale.
  ensureBuilt();
  redis = await startTestRedis();
  project.provide('redis', { host: redis.host, port: redis.port });
}

export async function teardown(): Promise<void> {
  await redis?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    redis: { host: string; port: number };
  }
}
