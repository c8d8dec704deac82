/**
 * Effect records on a real Redis (the crash/restart contract of docs/coordination.md): a claim
 * without an outcome — the attempt's worker died — is seen by the retry, in any process, with the
 * first attempt's start time; a side-effect command's retry that finds it does not simply run again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RedisEffectLedger } from '../../src/coordination/effect-records';
import { type CommandContext, defineCommand } from '../../src/core/command';
import { claimEarly, runRecorded } from '../../src/core/effects';
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
  it('a claim without an outcome is seen by the retry in a restarted process, with the first start time', async () => {
    const key = 'test:restart';
    expect(await ledger.claim(key, 1_000)).toEqual({ kind: 'fresh' });
    // The worker died here. The retry runs in another process: nothing is shared but Redis.
    const restarted = new RedisEffectLedger(redis, prefix);
    expect(await restarted.claim(key, 5_000)).toEqual({ kind: 'interrupted', since: 1_000 });
    expect(await restarted.claim(key, 9_000)).toEqual({ kind: 'interrupted', since: 1_000 });
    await restarted.finish(key, 'ok');
    expect(await ledger.claim(key)).toEqual({ kind: 'finished', outcome: 'ok' });
    // Kept for the retries of a command job, and then gone (no record outlives its use).
    const ttl = await redis.ttl(`${prefix}effect-record:${key}`);
    expect(ttl).toBeGreaterThan(86_400);
    expect(ttl).toBeLessThanOrEqual(2 * 86_400);
  });

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

  it("a claim made alongside the checks is taken back when they refuse; an earlier attempt's claim is kept", async () => {
    const { command, runs } = counted();
    // Refused (no permission, a lock, an approval asked): the run that follows later runs as the first.
    const refused = claimEarly(command, 'test:refused', ledger);
    await refused?.withdraw();
    expect(await redis.exists(`${prefix}effect-record:test:refused`)).toBe(0);
    expect(await attempt(command, 'test:refused')).toEqual(['Restarted a.']);
    // A retry of an interrupted attempt that is refused leaves the interrupted claim for the next one.
    const { key, since } = await interrupted();
    const again = claimEarly(command, key, ledger);
    expect(await again?.state).toEqual({ kind: 'interrupted', since });
    await again?.withdraw();
    expect(await ledger.claim(key)).toEqual({ kind: 'interrupted', since });
    // A finished record is never taken back.
    await ledger.finish(key, 'ok');
    await ledger.withdraw(key);
    expect(await ledger.claim(key)).toEqual({ kind: 'finished', outcome: 'ok' });
    expect(runs).toHaveLength(1);
  });
});
