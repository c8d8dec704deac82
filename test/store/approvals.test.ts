/**
 * The open approvals of a tool, read from its index on the test Redis: open requests oldest first,
 * never one that was decided, that expired or that belongs to another tool; at most the limit.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { ApprovalRecord } from '../../src/core/approvals';
import { RedisApprovals } from '../../src/store/approvals';
import { testPrefix, useTestRedis } from '../support/redis';

let redis: Redis;
let store: RedisApprovals;
let prefix: string;

useTestRedis((opened) => {
  redis = opened;
  prefix = testPrefix();
  store = new RedisApprovals(redis, prefix);
});

const now = Date.now();
const record = (id: string, tool: string, expiresIn: number): ApprovalRecord => ({
  id,
  tool,
  command: 'deploy',
  requester: { platform: 'slack', id: 'U1', name: 'ada', workspace: 'T1' },
  conversationId: 'slack:T1:C1',
  args: '{}',
  question: `Deploy ${tool}?`,
  approvers: 1,
  expiresAt: now + expiresIn,
  state: 'open',
  decisions: [],
});

describe('open approvals by tool', () => {
  it('lists the open ones, not the decided, expired or other tools’ ones, within the limit', async () => {
    await store.open(record('first', 'indexed', 60_000));
    await store.open(record('second', 'indexed', 120_000));
    await store.open(record('denied', 'indexed', 90_000));
    await store.open(record('soon', 'indexed', 1_000));
    await store.open(record('elsewhere', 'another', 60_000));
    await store.decide('denied', { kind: 'denied', key: 'slack:T1:U2', name: 'bob', at: now });
    const ids = async (at: number, limit = 10) =>
      (await store.pending('indexed', { now: at, limit })).map((r) => r.id);
    expect(await ids(now)).toEqual(['soon', 'first', 'second']);
    expect(await ids(now, 2)).toEqual(['soon', 'first']);
    expect(await ids(now + 5_000)).toEqual(['first', 'second']);
    // The decided request was dropped from the index when it was read.
    expect(await redis.zrange(`${prefix}approvals-open:{indexed}`, 0, -1)).not.toContain('denied');
    // The index lives as long as its latest request.
    const ttl = await redis.pttl(`${prefix}approvals-open:{indexed}`);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });
});
