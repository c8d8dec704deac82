/**
 * The ack benchmark's load (bench/lib/command-load.ts) is steady: its commands arrive spread over
 * each second, as people's commands do, not as a burst at the start of every second (what a
 * per-connection rate with several requests a second per connection makes of it); and it
 * is open-loop: a slow server gets the same arrivals, not fewer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commandLoad } from '../bench/lib/command-load';

let server: Server;
let url: string;
let arrivals: number[] = [];
/** How long the server waits before it answers (ms). */
let answerAfterMs = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    arrivals.push(performance.now());
    request.resume();
    request.on('end', () => setTimeout(() => response.end(), answerAfterMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  arrivals = [];
  answerAfterMs = 0;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const target = () => ({ url, secret: 'bench-load-test-secret', teamId: 'T1', fakeUrl: 'http://127.0.0.1:9' });

/** The share of `times` in each quarter of a second, counted from the first. */
function quarterShares(times: number[]): Map<number, number> {
  const first = Math.min(...times);
  const quarters = new Map<number, number>();
  for (const at of times) {
    const quarter = Math.floor(((at - first) % 1000) / 250);
    quarters.set(quarter, (quarters.get(quarter) ?? 0) + 1 / times.length);
  }
  return quarters;
}

describe('the ack benchmark’s load', () => {
  it('spreads its commands over each second', async () => {
    const run = await commandLoad(target(), 40, 3);
    expect(run.non2xx + run.errors).toBe(0);
    // Exactly the rate: 40 a second for 3 s.
    expect(run.sent).toBe(120);
    expect(arrivals).toHaveLength(120);
    // Each arrival's place within its second (counted from the first): a steady load fills every
    // quarter of the second alike (25 % each); a burst per second puts nearly all in the first.
    const quarters = quarterShares(arrivals);
    expect([...quarters.keys()].sort()).toEqual([0, 1, 2, 3]);
    for (const share of quarters.values()) expect(share).toBeGreaterThan(0.12);
    expect(run.acks).toHaveLength(120);
  });

  it('keeps sending at its rate when the server is slow to answer', async () => {
    // Each answer takes 2.5 s: a closed-loop load (a connection's next request after its last
    // answer) would send the second half 2.5 s late; this one sends every
    // command at its time.
    answerAfterMs = 2500;
    const started = performance.now();
    const run = await commandLoad(target(), 40, 2);
    expect(run.sent).toBe(80);
    expect(run.non2xx + run.errors + run.timeouts).toBe(0);
    expect(arrivals).toHaveLength(80);
    // Every command arrived within the 2 s of sending (plus slack for a busy machine), not 3.5 s.
    expect(Math.max(...arrivals) - started).toBeLessThan(3000);
    for (const share of quarterShares(arrivals).values()) expect(share).toBeGreaterThan(0.12);
    // And each ack counted the server's wait.
    expect(Math.min(...run.acks)).toBeGreaterThanOrEqual(2490);
  });
});
