import type { TestProject } from 'vitest/node';
import { startTestRedis, type TestRedis } from './redis-server';

let redis: TestRedis | undefined;

/** Starts one redis-server for the whole run; tests reach it through `inject('redis')`. */
export async function setup(project: TestProject): Promise<void> {
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
