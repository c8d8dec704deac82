import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log';
import { WebServer } from '../../src/web/server';
import { testRedis } from '../support/redis';

let redis: Redis;
let web: WebServer;
let base: string;
let adapterUp = true;

beforeAll(async () => {
  redis = testRedis();
  web = new WebServer(silentLogger);
  web.healthCheck('redis', async () => (await redis.ping()) === 'PONG');
  web.healthCheck('slack', async () => adapterUp);
  base = `http://127.0.0.1:${await web.listen(0, '127.0.0.1')}`;
});
afterAll(async () => {
  await web.close();
  redis.disconnect();
});

describe('the HTTP server', () => {
  it('is not ready until marked, then ready', async () => {
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    web.markReady();
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it('reports health per check, red when one fails', async () => {
    const ok = await fetch(`${base}/healthz`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: 'ok', checks: { redis: true, slack: true } });
    adapterUp = false;
    const bad = await fetch(`${base}/healthz`);
    expect(bad.status).toBe(503);
    expect(await bad.json()).toEqual({ status: 'degraded', checks: { redis: true, slack: false } });
    adapterUp = true;
  });

  it('404s unknown routes, and /metrics when no metrics endpoint is set (test/web/metrics-endpoint.test.ts serves them)', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });
});
