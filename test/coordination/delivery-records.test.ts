/**
 * Delivery records on a real Redis (the crash/restart contract of docs/coordination.md): the first
 * attempt of a post starts its record; a retry — in any process, after the worker died between
 * the platform's answer and the record — finds it interrupted with the first attempt's start time,
 * so it looks for the message before posting; once the post is recorded no retry posts again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DeliveryRecords } from '../../src/coordination/delivery-records';
import { testPrefix, testRedis } from '../support/redis';

const redis = testRedis();
afterAll(() => redis.quit());

describe('delivery records', () => {
  it('is fresh once, then interrupted (with the first start time), then posted with its handle', async () => {
    const records = new DeliveryRecords(redis, testPrefix());
    expect(await records.begin('k1', 1000)).toEqual({ kind: 'fresh' });
    expect(await records.begin('k1', 2000)).toEqual({ kind: 'interrupted', since: 1000 });
    const handle = { platform: 'slack', conversationId: 'slack:T:C', ref: { channel: 'C', ts: '1.2' } };
    await records.posted('k1', handle);
    expect(await records.begin('k1', 3000)).toEqual({ kind: 'posted', handle });
    expect(await records.begin('k2', 3000)).toEqual({ kind: 'fresh' });
  });

  it('a retry in a restarted process sees the interrupted attempt; a post without a handle still counts', async () => {
    const prefix = testPrefix();
    expect(await new DeliveryRecords(redis, prefix).begin('k', 1000)).toEqual({ kind: 'fresh' });
    const restarted = new DeliveryRecords(redis, prefix);
    expect(await restarted.begin('k', 4000)).toEqual({ kind: 'interrupted', since: 1000 });
    // A platform that answers without a message handle (nothing to edit later): posted all the same.
    await restarted.posted('k', undefined);
    expect(await new DeliveryRecords(redis, prefix).begin('k')).toEqual({
      kind: 'posted',
      handle: undefined,
    });
    // Kept longer than a deliver job can live (its failed copy is kept 7 days).
    expect(await redis.ttl(`${prefix}delivery:k`)).toBeGreaterThan(7 * 86_400);
  });
});
