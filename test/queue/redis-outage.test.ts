import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import { WebServer } from '../../src/web/server';
import { startTestApp, type TestApp } from '../support/app';
import { freePort, startTestRedis, type TestRedis } from '../support/redis-server';
import { waitFor } from '../support/wait';

let redis: TestRedis | undefined;
let t: TestApp | undefined;
let web: WebServer | undefined;
let platform: ToolhostClientFactory | undefined;

afterAll(async () => {
  await platform?.close();
  await web?.close();
  await t?.close();
  await redis?.stop();
});

describe('when Redis goes away', () => {
  it('readiness turns red (liveness stays green), and the work resumes when Redis is back', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'deckhand-outage-'));
    redis = await startTestRedis({ port, dir, persistent: true });
    // A watch that was running when Redis went away is taken up again once its lock expires: keep
    // that short, so the resumption is waited for in seconds on any machine.
    t = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${port}/0`, QUEUE_LOCK_MS: '2000' });
    platform = ToolhostClientFactory.forSandbox(t.app.emulators.toolhost as ToolhostSandbox);
    web = new WebServer(silentLogger);
    const app = t.app;
    web.healthCheck('redis', async () => (await app.redis.redis.ping()) === 'PONG');
    const base = `http://127.0.0.1:${await web.listen(0, '127.0.0.1')}`;
    web.markReady();
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    const build = await platform
      .forTool('mytool')
      .builds.start({ source_url: 'https://example.org/stuck-outage.git' });
    const handle = { platform: 'slack' as const, conversationId: 'slack:T1:COUT', ref: { ts: 'outage' } };
    await t.app.services.watches.start({ kind: 'build', tool: 'mytool', id: build.name, handle });
    await waitFor(() => t?.transcript.updates.some((u) => u.handle.ref.ts === 'outage'));

    await redis.stop();
    // Not ready (re-checked after the short cache), yet alive: liveness does not follow Redis.
    await waitFor(async () => (await fetch(`${base}/readyz`)).status === 503, 60_000, 200);
    const down = await fetch(`${base}/readyz`);
    expect(await down.json()).toMatchObject({ checks: { redis: false }, notReady: ['redis'] });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    await platform.forTool('mytool').builds.cancel(build.name);
    redis = await startTestRedis({ port, dir, persistent: true });
    await waitFor(async () => (await fetch(`${base}/readyz`)).status === 200, 60_000, 200);
    const last = await waitFor(
      () =>
        t?.transcript.updates
          .filter((u) => u.handle.ref.ts === 'outage')
          .find((u) => u.card.fields?.[0]?.value === 'cancelled'),
      // Reconnecting after the outage backs off: on a busy machine it takes a while (not a time bound).
      120_000,
      200,
    );
    expect(last.card.status).toBe('warning');
  }, 300_000);
});
