/**
 * The failure-claim store on the test Redis: fifty people pressing I'm on it at once leave one
 * claim; a hand-off is the holder's alone and lets the next presser take over; a claimed failure's
 * repeats are silenced and its success awaits confirmation; release ends the silence.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { MessageHandle } from '../../src/core/command';
import type { WatchEvent } from '../../src/core/watch';
import { RedisFailureClaims } from '../../src/store/failure-claims';
import { testPrefix, useTestRedis } from '../support/redis';

let redis: Redis;
let store: RedisFailureClaims;

useTestRedis((opened) => {
  redis = opened;
  store = new RedisFailureClaims(redis, testPrefix());
});

const event = (job: string, to: 'failed' | 'running', serial: number): WatchEvent => ({
  tool: 'mytool',
  kind: 'job',
  id: job,
  claim: { scope: { tool: 'mytool', job: job }, everyOutcome: true },
  from: 'running',
  to,
  at: 1_700_000_000_000 + serial,
  detail: `Job ${job} is ${to}.`,
  outcome: to === 'failed' ? 'failure' : 'success',
  terminal: false,
  serial,
});
const handle: MessageHandle = { platform: 'slack', conversationId: 'slack:T1:C1', ref: { ts: '1.2' } };
const claimBy = (who: string) => ({ holder: `slack:T1:${who}`, name: who, since: Date.now() });

describe('failure claims in Redis', () => {
  it('of fifty presses at once, exactly one takes the claim', async () => {
    const failed = event('race', 'failed', 1);
    expect(await store.gate(failed)).toBe('announce');
    await store.posted(failed, handle, { title: 'mytool: job failed' });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.claim({ tool: 'mytool', job: 'race' }, claimBy(`U${i}`))),
    );
    const taken = results.filter((r) => r.kind === 'taken');
    expect(taken).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'held')).toHaveLength(49);
    const state = await store.state({ tool: 'mytool', job: 'race' });
    expect(state?.cards).toEqual([handle]);
    expect(state?.card?.title).toBe('mytool: job failed');
  });

  it('silences repeats while claimed; a success awaits confirmation; release ends the silence', async () => {
    const scope = { tool: 'mytool', job: 'web' };
    expect(await store.claim(scope, claimBy('ada'))).toEqual({ kind: 'none' });
    expect(await store.gate(event('web', 'failed', 1))).toBe('announce');
    expect((await store.claim(scope, claimBy('ada'))).kind).toBe('taken');
    for (let n = 2; n <= 6; n++) expect(await store.gate(event('web', 'failed', n))).toBe('silenced');
    const running = event('web', 'running', 7);
    expect(await store.gate(running)).toBe('recovering');
    expect(await store.awaits(running)).toBe(true);
    // Failing again before the recovery held: the recovery is stale.
    expect(await store.gate(event('web', 'failed', 8))).toBe('silenced');
    expect(await store.awaits(running)).toBe(false);
    expect(await store.recover(running)).toBeUndefined();

    expect(await store.handoff(scope, 'slack:T1:bob', 'carol')).toMatchObject({ kind: 'not-holder' });
    expect(await store.handoff(scope, 'slack:T1:ada', 'bob')).toMatchObject({
      kind: 'offered',
      state: { claim: { name: 'ada', offeredTo: 'bob' } },
    });
    expect(await store.claim(scope, claimBy('bob'))).toMatchObject({
      kind: 'taken',
      previous: { name: 'ada' },
      state: { claim: { name: 'bob' } },
    });
    expect(await store.release(scope)).toMatchObject({ released: { name: 'bob' } });
    expect(await store.gate(event('web', 'failed', 9))).toBe('announce');

    expect((await store.claim(scope, claimBy('ada'))).kind).toBe('taken');
    const back = event('web', 'running', 10);
    expect(await store.gate(back)).toBe('recovering');
    expect(await store.recover(back)).toMatchObject({ claim: { name: 'ada' } });
    expect(await store.state(scope)).toBeUndefined();
  });

  it("lists a tool's claimed failures from its index, and forgets one whose claim ended", async () => {
    const store2 = new RedisFailureClaims(redis, testPrefix());
    const ev = (job: string) => ({
      ...event(job, 'failed', 1),
      tool: 'other',
      claim: { scope: { tool: 'other', job }, everyOutcome: true },
    });
    for (const job of ['a', 'b', 'c']) expect(await store2.gate(ev(job))).toBe('announce');
    await store2.claim({ tool: 'other', job: 'a' }, claimBy('ada'));
    await store2.claim({ tool: 'other', job: 'b' }, claimBy('bob'));
    const holders = async () => (await store2.claimedOn('other')).map((s) => [s.scope.job, s.claim?.holder]);
    expect(await holders()).toEqual([
      ['a', 'slack:T1:ada'],
      ['b', 'slack:T1:bob'],
    ]);
    expect(await store2.claimedOn('mytool-none')).toEqual([]);
    await store2.release({ tool: 'other', job: 'a' });
    expect(await holders()).toEqual([['b', 'slack:T1:bob']]);
  });
});
