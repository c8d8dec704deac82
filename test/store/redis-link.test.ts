/**
 * The link options' socket timeout on a process whose event loop is held up: the answers that
 * arrived meanwhile are read before the connection could be given up, so it is kept and no command
 * is sent twice.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { LINK_OPTIONS } from '../../src/store/redis-link';
import { testPrefix, testRedisOptions } from '../support/redis';

const prefix = testPrefix();
const redis = new Redis({ ...testRedisOptions(), ...LINK_OPTIONS });
afterAll(() => redis.quit());

/** Holds the event loop for `ms` (what a busy worker's long turn does). */
function holdLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

describe('a connection with the socket timeout', () => {
  it('is kept when the loop was held up past the timeout while its answer waited, and runs the command once', async () => {
    await redis.ping();
    const key = `${prefix}counter`;
    let reconnects = 0;
    redis.on('reconnecting', () => {
      reconnects += 1;
    });
    const incremented = redis.incr(key);
    holdLoop(LINK_OPTIONS.socketTimeout + 500);
    expect(await incremented).toBe(1);
    // Another turn for a timer that might still fire.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await redis.get(key)).toBe('1');
    expect(reconnects).toBe(0);
    expect(redis.status).toBe('ready');
  });
});
