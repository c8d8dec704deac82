import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordRules, slackRules, telegramRules } from '../bench/lib/platform-limits';
import { lowerBoundMs, WindowLimiter } from '../bench/lib/rate-limit';
import { type RateLimitProxy, startRateLimitProxy } from '../bench/lib/rate-limit-proxy';
import { percentile } from '../bench/lib/stats';
import { renderTable } from '../bench/lib/table';

describe('the benchmarks’ rate limiter', () => {
  it('allows `limit` requests per window that opens at the first request, then says how long to wait', () => {
    const limiter = new WindowLimiter(20);
    const limit = [{ key: 'discord:channel:1', limit: 5, windowMs: 5000 }];
    for (let i = 0; i < 5; i++) expect(limiter.take(limit, 1000 + i).allowed).toBe(true);
    expect(limiter.take(limit, 2000)).toEqual({
      allowed: false,
      key: 'discord:channel:1',
      retryAfterMs: 4000,
      global: false,
    });
    // A client that waits the window out is not refused over scheduling noise (20 ms early is fine).
    expect(limiter.take(limit, 5985).allowed).toBe(true);
  });

  it('counts a request against every limit only when all of them allow it', () => {
    const limiter = new WindowLimiter(0);
    const global = { key: 'telegram:global', limit: 2, windowMs: 1000 };
    const chatA = [{ key: 'telegram:chat:1', limit: 1, windowMs: 1000 }, global];
    const chatB = [{ key: 'telegram:chat:2', limit: 1, windowMs: 1000 }, global];
    expect(limiter.take(chatA, 0).allowed).toBe(true);
    expect(limiter.take(chatA, 1).allowed).toBe(false); // per chat: not counted globally
    expect(limiter.take(chatB, 2).allowed).toBe(true);
    const third = limiter.take([{ key: 'telegram:chat:3', limit: 1, windowMs: 1000 }, global], 3);
    expect(third).toMatchObject({ allowed: false, key: 'telegram:global', global: true });
  });

  it('gives the least time a number of messages needs under a limit', () => {
    expect(lowerBoundMs(500, 30, 1000)).toBe(16_000);
    expect(lowerBoundMs(500, 50, 1000)).toBe(9000);
    expect(lowerBoundMs(30, 30, 1000)).toBe(0);
    expect(lowerBoundMs(0, 30, 1000)).toBe(0);
  });

  it('knows which documented limits each platform’s requests count against', () => {
    const slack = slackRules.limits({
      method: 'POST',
      path: '/api/chat.postMessage',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from('channel=C123&text=hi'),
    });
    expect(slack).toEqual([{ key: 'slack:post:C123', limit: 1, windowMs: 1000 }]);
    const discord = discordRules.limits({
      method: 'POST',
      path: '/api/v10/channels/42/messages',
      headers: {},
      body: Buffer.from('{}'),
    });
    expect(discord.map((l) => l.key)).toEqual(['discord:channel:42', 'discord:global']);
    const telegram = telegramRules.limits({
      method: 'POST',
      path: '/bot1:abc/sendMessage',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ chat_id: -100123, text: 'hi' })),
    });
    expect(telegram).toEqual([
      { key: 'telegram:group:-100123', limit: 20, windowMs: 60_000 },
      { key: 'telegram:global', limit: 30, windowMs: 1000 },
    ]);
    // A group's edits have a budget of their own: 20 a minute besides its 20 messages.
    const groupEdit = telegramRules.limits({
      method: 'POST',
      path: '/bot1:abc/editMessageText',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ chat_id: -100123, message_id: 7, text: 'hi' })),
    });
    expect(groupEdit[0]).toEqual({ key: 'telegram:group-edits:-100123', limit: 20, windowMs: 60_000 });
    expect(
      telegramRules.limits({ method: 'POST', path: '/bot1:abc/getMe', headers: {}, body: Buffer.alloc(0) }),
    ).toEqual([]);
  });
});

describe('the rate-limiting proxy in front of a fake', () => {
  let target: Server;
  let proxy: RateLimitProxy;

  beforeAll(async () => {
    target = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, ts: '1.0001' }));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    proxy = await startRateLimitProxy(
      `http://127.0.0.1:${(target.address() as AddressInfo).port}`,
      slackRules,
    );
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise((resolve) => target.close(resolve));
  });

  it('forwards what the limits allow, answers Slack’s 429 past them, and counts both', async () => {
    const post = (channel: string) =>
      fetch(`${proxy.url}/api/chat.postMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `channel=${channel}&text=hello`,
      });
    const first = await post('C1');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true, ts: '1.0001' });
    const second = await post('C1');
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(await second.json()).toEqual({ ok: false, error: 'ratelimited' });
    expect((await post('C2')).status).toBe(200);
    expect(proxy.delivered.map((d) => d.conversation)).toEqual(['C1', 'C2']);
    expect(Object.fromEntries(proxy.refused)).toEqual({ 'slack:post:<id>': 1 });
  });
});

describe('the benchmark table', () => {
  it('prints each figure with its baseline, ratio and target, and says why a benchmark did not run', () => {
    const table = renderTable(
      [
        {
          id: 'ack',
          title: '1. Ack latency',
          status: 'ran',
          figures: [
            {
              metric: 'ack p99',
              value: 12,
              baseline: 10,
              baselineLabel: 'bare Bolt',
              ratio: 1.2,
              target: '≤ 1.2',
              met: true,
              unit: 'ms',
            },
          ],
          params: {},
          notes: [],
          seconds: 1,
        },
        {
          id: 'upload',
          title: '3. Streaming upload',
          status: 'not run',
          reason: 'the media issue has not landed',
          figures: [],
          params: {},
          notes: [],
          seconds: 0,
        },
      ],
      false,
    );
    expect(table).toContain('1. Ack latency      | ack p99');
    expect(table).toMatch(/12 ms\s+\| 10 ms \(bare Bolt\)\s+\| 1\.20×\s+\| ≤ 1\.2\s+\| met/);
    expect(table).toContain('not run: the media issue has not landed');
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
  });
});
