/**
 * Effect records and resource locks on a real Redis: a side-effect command's attempt that finds an
 * interrupted earlier attempt of the same delivery does not simply run again; a lock waiter outlasts
 * a dead holder, and a wait that runs out is answered in words.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RedisEffectLedger } from '../../src/coordination/effect-records';
import { LockTimeoutError, ResourceLocks } from '../../src/coordination/locks';
import { type CommandContext, defineCommand } from '../../src/core/command';
import { runWithDeadline } from '../../src/core/command-deadline';
import { runRecorded } from '../../src/core/effects';
import { DeckhandError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { testPrefix, testRedis } from '../support/redis';

const redis = testRedis();
const prefix = testPrefix();
afterAll(() => redis.quit());
const ledger = new RedisEffectLedger(redis, prefix);
let serial = 0;

/** A side-effect command that counts its runs; `recover` as given. */
function counted(recover?: (since: number) => Promise<'run' | DraftCard | undefined>) {
  const runs: { interrupted?: { since: number } }[] = [];
  const command = defineCommand({
    name: 'thing restart',
    summary: 'Restart a thing',
    args: z.object({ thing: z.string() }),
    examples: ['/thing restart a'],
    permission: 'write',
    sideEffect: true,
    effect: {
      check: (args) => `/thing show ${args.thing}`,
      ...(recover ? { recover: (_ctx: unknown, since: number) => recover(since) } : {}),
    },
    async run(ctx) {
      runs.push(ctx.interrupted ? { interrupted: ctx.interrupted } : {});
      return { text: `Restarted ${ctx.args.thing}.`, status: 'success' };
    },
  });
  return { command, runs };
}

/** Runs the command for delivery `key`; resolves with the cards the user was shown. */
async function attempt(command: ReturnType<typeof counted>['command'], key: string): Promise<string[]> {
  const shown: string[] = [];
  const context = {
    args: { thing: 'a' },
    invocation: {
      user: { platform: 'shell', id: 'ada', name: 'Ada', workspace: 'local' },
      conversation: { platform: 'shell', workspace: 'local', channel: 'term' },
      conversationId: 'shell:local:term',
      isPrivate: true,
      key,
    },
    services: {},
    reply: async () => undefined,
    update: async () => undefined,
    openForm: async () => false,
  } as unknown as CommandContext<Record<string, unknown>, unknown>;
  await runRecorded(command as never, context, ledger, async (card) => {
    shown.push(card.text ?? '');
  });
  return shown;
}

/** A delivery whose first attempt claimed its record and died before writing the outcome. */
async function interrupted(): Promise<{ key: string; since: number }> {
  serial += 1;
  const key = `test:delivery:${serial}`;
  const since = Date.now() - 1000;
  expect(await ledger.claim(key, since)).toEqual({ kind: 'fresh' });
  return { key, since };
}

describe('effect records', () => {
  it('a first attempt runs; one that finds it finished does not run again', async () => {
    const { command, runs } = counted();
    expect(await attempt(command, 'test:once')).toEqual(['Restarted a.']);
    expect(await attempt(command, 'test:once')).toEqual([
      '/thing restart already ran for this request; its answer is above.',
    ]);
    expect(runs).toHaveLength(1);
  });

  it('an interrupted attempt it cannot recognise: the user is told it may have run and how to check', async () => {
    const { command, runs } = counted();
    const { key } = await interrupted();
    expect(await attempt(command, key)).toEqual([
      'Deckhand was interrupted while running /thing restart, so this may already have run — check with `/thing show a` before running it again.',
    ]);
    expect(runs).toHaveLength(0);
    // Its outcome is written: a third attempt finds it answered.
    expect(await ledger.claim(key)).toEqual({ kind: 'finished', outcome: 'may-have-run' });
  });

  it('an interrupted attempt whose work is recognised is answered with it, not run again', async () => {
    const seen: number[] = [];
    const { command, runs } = counted(async (since) => {
      seen.push(since);
      return { text: 'Thing a was restarted by this request.', status: 'success' };
    });
    const { key, since } = await interrupted();
    expect(await attempt(command, key)).toEqual(['Thing a was restarted by this request.']);
    expect(runs).toHaveLength(0);
    expect(seen).toEqual([since]);
  });

  it('runs again with the first attempt time when the rules say it is safe', async () => {
    const { command, runs } = counted(async () => 'run');
    const { key, since } = await interrupted();
    expect(await attempt(command, key)).toEqual(['Restarted a.']);
    expect(runs).toEqual([{ interrupted: { since } }]);
  });
});

describe('resource locks', () => {
  const locks = new ResourceLocks(redis, prefix);

  it('a waiter outlasts a holder that died with the lock', async () => {
    // A holder that died: its lock stays until its hold time runs out.
    expect(await redis.set(`${prefix}lock:dead`, 'gone', 'PX', 800, 'NX')).toBe('OK');
    const ran = await locks.withLock('dead', async () => 'ran', { holdMs: 800 });
    expect(ran).toBe('ran');
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
