/**
 * Resource locks on a real Redis (the crash/restart contract of docs/coordination.md): a holder that
 * dies keeps the lock no longer than its lease, and a waiter gets it then; a holder whose lease ran out
 * never frees the lock its successor took; a retry of the same delivery takes over its own dead
 * attempt's lock at once; a wait that runs out is answered in words; every wait is measured.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LockTimeoutError, ResourceLocks } from '../../src/coordination/locks';
import { runWithDeadline } from '../../src/core/command-deadline';
import { DeckhandError } from '../../src/core/errors';
import { lockWait } from '../../src/metrics';
import { histogramCount } from '../support/metric-values';
import { testPrefix, testRedis } from '../support/redis';

const redis = testRedis();
const prefix = testPrefix();
afterAll(() => redis.quit());

describe('resource locks', () => {
  const locks = new ResourceLocks(redis, prefix);

  it('a waiter outlasts a holder that died with the lock', async () => {
    // A holder that died: its lock stays until its hold time runs out.
    expect(await redis.set(`${prefix}lock:dead`, 'gone', 'PX', 800, 'NX')).toBe('OK');
    const ran = await locks.withLock('dead', async () => 'ran', { holdMs: 800 });
    expect(ran).toBe('ran');
  });

  it("a holder whose lease ran out does not free its successor's lock", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first holder stalls past its 300 ms lease…
    const slow = locks.withLock('lease', () => held, { holdMs: 300 });
    await waitForLock(`${prefix}lock:lease`);
    // …a waiter takes the lock, and while it works the first holder ends and frees "its" lock.
    const successor = locks.withLock(
      'lease',
      async () => {
        release();
        await slow;
        return redis.exists(`${prefix}lock:lease`);
      },
      { holdMs: 5_000 },
    );
    expect(await successor).toBe(1);
    expect(await redis.exists(`${prefix}lock:lease`)).toBe(0);
  });

  it('every wait is measured, by outcome (taken or busy)', async () => {
    const taken = await histogramCount(lockWait, { outcome: 'taken' });
    const busy = await histogramCount(lockWait, { outcome: 'busy' });
    await locks.withLock('measured', async () => undefined);
    expect(await redis.set(`${prefix}lock:measured`, 'other', 'PX', 5_000)).toBe('OK');
    await locks.withLock('measured', async () => undefined, { waitMs: 50 }).catch(() => undefined);
    expect(await histogramCount(lockWait, { outcome: 'taken' })).toBe(taken + 1);
    expect(await histogramCount(lockWait, { outcome: 'busy' })).toBe(busy + 1);
  });

  it('a wait that runs out is answered in words, not as an internal error', async () => {
    expect(await redis.set(`${prefix}lock:busy`, 'other', 'PX', 5_000, 'NX')).toBe('OK');
    const error = await locks
      .withLock('busy', async () => 'ran', {
        waitMs: 100,
        busy: 'Another deployment of mytool is being started.',
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect(error).toBeInstanceOf(DeckhandError);
    expect((error as DeckhandError).message).toBe('Another deployment of mytool is being started.');
    expect((error as DeckhandError).hint).toBe('Try again in a minute.');
  });

  it('a retry of the same delivery takes over the lock its dead attempt left, another waits', async () => {
    // The first attempt took the lock for 30 s and its worker died.
    const dead = locks.withLock('owned', () => new Promise<string>(() => undefined), {
      owner: 'slack:T1:cmd-1',
    });
    void dead;
    await waitForLock(`${prefix}lock:owned`);
    const other = await locks
      .withLock('owned', async () => 'ran', { waitMs: 300, owner: 'slack:T1:cmd-2' })
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(LockTimeoutError);
    expect(await locks.withLock('owned', async () => 'ran', { waitMs: 300, owner: 'slack:T1:cmd-1' })).toBe(
      'ran',
    );
    // Left again by the same delivery, and freed when that delivery found its work elsewhere.
    expect(await redis.set(`${prefix}lock:owned`, 'slack:T1:cmd-1|abc', 'PX', 30_000)).toBe('OK');
    await locks.releaseOwned('owned', 'slack:T1:cmd-2');
    expect(await redis.exists(`${prefix}lock:owned`)).toBe(1);
    await locks.releaseOwned('owned', 'slack:T1:cmd-1');
    expect(await redis.exists(`${prefix}lock:owned`)).toBe(0);
  });

  it("inside a command, a wait ends before the command's deadline with the busy words", async () => {
    expect(await redis.set(`${prefix}lock:late`, 'other', 'PX', 30_000, 'NX')).toBe('OK');
    let error: unknown;
    const surface = { reply: async () => undefined, update: async () => undefined };
    await runWithDeadline({ deadlineMs: 2_500 }, surface, async () => {
      error = await locks
        .withLock('late', async () => 'ran', { busy: 'Another deployment of mytool is being started.' })
        .catch((e: unknown) => e);
    });
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect((error as DeckhandError).message).toBe('Another deployment of mytool is being started.');
  });
});

/** Waits until `key` exists in Redis. */
async function waitForLock(key: string): Promise<void> {
  while ((await redis.exists(key)) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
}
