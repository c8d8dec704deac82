/**
 * The ack benchmark's load (bench/lib/command-load.ts) is steady: its commands arrive spread over
 * each second, as people's commands do, not as a burst at the start of every second (what
 * autocannon's per-connection rate made of it with several requests a second per connection).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLoad, connectionsFor } from '../bench/lib/command-load';

let server: Server;
let url: string;
const arrivals: number[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    arrivals.push(performance.now());
    request.resume();
    request.on('end', () => response.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the ack benchmark’s load', () => {
  it('sends one request a second per connection, so no connection bursts', () => {
    expect(connectionsFor(200)).toEqual({ connections: 200, connectionRate: 1 });
    expect(connectionsFor(5)).toEqual({ connections: 5, connectionRate: 1 });
  });

  it('spreads its commands over each second', async () => {
    const run = await commandLoad(
      { url, secret: 'bench-load-test-secret', teamId: 'T1', fakeUrl: 'http://127.0.0.1:9' },
      40,
      3,
    );
    expect(run.non2xx + run.errors).toBe(0);
    // Exactly the rate: 40 a second for 3 s.
    expect(run.sent).toBe(120);
    expect(arrivals).toHaveLength(120);
    // Each arrival's place within its second (counted from the first): a steady load fills every
    // quarter of the second alike (25 % each); a burst per second puts nearly all in the first.
    const first = Math.min(...arrivals);
    const quarters = new Map<number, number>();
    for (const at of arrivals) {
      const quarter = Math.floor(((at - first) % 1000) / 250);
      quarters.set(quarter, (quarters.get(quarter) ?? 0) + 1);
    }
    expect([...quarters.keys()].sort()).toEqual([0, 1, 2, 3]);
    for (const count of quarters.values()) expect(count / arrivals.length).toBeGreaterThan(0.12);
  });
});
