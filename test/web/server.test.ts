import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log';
import { WebServer } from '../../src/web/server';
import { testRedis } from '../support/redis';
import { waitFor } from '../support/wait';

let redis: Redis;
let web: WebServer;
let base: string;
let adapterUp = true;

beforeAll(async () => {
  redis = testRedis();
  web = new WebServer(silentLogger, 200);
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

  it('/readyz reports each check, 503 naming the one that fails; /healthz stays 200 (liveness)', async () => {
    const ok = await fetch(`${base}/readyz`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: 'ready', checks: { redis: true, slack: true } });
    adapterUp = false;
    // Re-checked on a later request (the answer is cached for at most readyCacheMs).
    await waitFor(async () => (await fetch(`${base}/readyz`)).status === 503, 10_000, 100);
    const bad = await fetch(`${base}/readyz`);
    expect(await bad.json()).toEqual({
      status: 'not ready',
      checks: { redis: true, slack: false },
      notReady: ['slack'],
    });
    const live = await fetch(`${base}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'alive' });
    adapterUp = true;
    await waitFor(async () => (await fetch(`${base}/readyz`)).status === 200, 10_000, 100);
  });

  it('404s unknown routes, and /metrics when no metrics endpoint is set (test/web/metrics-endpoint.test.ts serves them)', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });
});
