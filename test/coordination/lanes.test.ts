/**
 * Command lanes (the crash/restart contract of docs/coordination.md): a person's commands in one
 * conversation run in arrival order, and the order lives in Redis, so it is kept across a worker
 * restart; a command that fails for good leaves its lane, so the next one runs; a lane head that never
 * became a job does not block the lane forever; the wait behind a lane is measured.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config';
import {
  isLaneTurn,
  joinLanes,
  type LaneTurnDeps,
  laneKey,
  laneOf,
  leaveLane,
  MISSING_HEAD_MS,
} from '../../src/coordination/lanes';
import type { CommandJob } from '../../src/core/command-job';
import type { Card } from '../../src/core/reply';
import { silentLogger } from '../../src/log';
import { commandLaneWait } from '../../src/metrics';
import { type App, createApp } from '../../src/wiring';
import { testPrefix } from '../support/redis';
import { waitFor } from '../support/wait';

let app: App;
let prefix: string;
const cards: { place: unknown; card: Card }[] = [];

beforeAll(async () => {
  const { host, port } = inject('redis');
  const db = Number(process.env.VITEST_POOL_ID ?? 1) % 64;
  prefix = testPrefix();
  const config = loadConfig({
    REDIS_URL: `redis://${host}:${port}/${db}`,
    REDIS_KEY_PREFIX: prefix,
    SANDBOX_STEP_MS: '20',
    ADMINS: 'slack:UADMIN',
  });
  app = await createApp({ config, logger: silentLogger, sandbox: true });
  // Only Slack answers in this process: a Discord command here fails for good.
  app.surfaces.register('slack', (place) => ({
    async reply(card) {
      cards.push({ place, card });
      return undefined;
    },
    async update() {},
  }));
  app.startWorkers();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

function job(key: string, platform: 'slack' | 'discord', text: string): CommandJob {
  return {
    key,
    platform,
    input: { kind: 'text', text },
    invocation: {
      user: { platform: 'slack', id: 'UADMIN', name: 'ada', workspace: 'T1' },
      conversation: { platform: 'slack', workspace: 'T1', channel: 'C1' },
      conversationId: 'slack:T1:C1',
      isPrivate: false,
    },
    place: { key },
  };
}

describe('command lanes', () => {
  it('a command that failed for good leaves its lane: the next one of the same person runs', async () => {
    await app.commandQueue.enqueue(job('lane:1', 'discord', '/help'));
    await app.commandQueue.enqueue(job('lane:2', 'slack', '/help'));
    await waitFor(() => cards.some((c) => (c.place as { key: string }).key === 'lane:2'), 30_000);
    // BullMQ records the failure after the job has left its lane, so it may trail the next card.
    const failed = await waitFor(async () => {
      const jobs = await app.queues.commands.getJobs(['failed']);
      return jobs.length > 0 ? jobs : undefined;
    }, 10_000);
    expect(failed.map((f) => f.data.key)).toEqual(['lane:1']);
    const lane = laneKey(prefix, laneOf(job('lane:1', 'discord', '/help')));
    await waitFor(async () => (await app.redis.redis.llen(lane)) === 0, 10_000);
  }, 60_000);

  it('a command that joined an empty lane runs without reading the lane (one round trip less)', async () => {
    const redis = app.redis.redis;
    const lindex = redis.lindex.bind(redis);
    const looked: string[] = [];
    redis.lindex = ((key: string, index: number) => {
      looked.push(key);
      return lindex(key, index);
    }) as typeof redis.lindex;
    try {
      await app.commandQueue.enqueue(job('lane:head', 'slack', '/help'));
      await waitFor(() => cards.some((c) => (c.place as { key: string }).key === 'lane:head'), 30_000);
      expect(looked).toEqual([]);
    } finally {
      redis.lindex = lindex as typeof redis.lindex;
    }
  }, 60_000);

  it('a lane head that never became a job is dropped once a later command has waited for it', async () => {
    const waitedBefore = await laneWaitSeconds();
    const lane = laneKey(prefix, laneOf(job('lane:3', 'slack', '/help')));
    await app.redis.redis.rpush(lane, 'cmd-never-queued');
    await app.commandQueue.enqueue(job('lane:3', 'slack', '/help'));
    // It waits its turn first (the head is there: it is put back as delayed, and nothing is answered)…
    await waitFor(async () => (await app.queues.commands.getJobs(['delayed'])).length === 1, 10_000);
    expect(cards.some((c) => (c.place as { key: string }).key === 'lane:3')).toBe(false);
    // …then the head is dropped and it runs.
    await waitFor(() => cards.some((c) => (c.place as { key: string }).key === 'lane:3'), 40_000);
    // The job leaves its lane when its command has ended, which is after its card was posted.
    await waitFor(async () => (await app.redis.redis.llen(lane)) === 0, 10_000);
    expect(await app.redis.redis.lrange(lane, 0, -1)).toEqual([]);
    // Its wait behind the missing head is measured.
    expect((await laneWaitSeconds()) - waitedBefore).toBeGreaterThanOrEqual(MISSING_HEAD_MS / 1000);
  }, 60_000);

  it('the order is kept across a worker restart: it lives in Redis, and a stalled head keeps its place', async () => {
    const redis = app.redis.redis;
    const lanes = testPrefix();
    const states = new Map([
      ['a', 'active'],
      ['b', 'delayed'],
      ['c', 'delayed'],
    ]);
    const worker = (): LaneTurnDeps => ({
      redis,
      prefix: lanes,
      jobState: async (id) => states.get(id) ?? 'unknown',
    });
    const entries = ['a', 'b', 'c'].map((id) => ({ lane: 'L', id }));
    expect(await joinLanes(redis, lanes, entries)).toEqual([1, 2, 3]);
    const before = worker();
    expect(await isLaneTurn(before, 'L', 'a', Date.now())).toBe(true);
    expect(await isLaneTurn(before, 'L', 'b', Date.now())).toBe(false);
    // The worker running `a` dies; BullMQ finds `a` stalled and runs it again (active) on a restarted
    // worker, which reads the same lane: `b` and `c` still wait.
    const after = worker();
    expect(await isLaneTurn(after, 'L', 'b', Date.now())).toBe(false);
    expect(await isLaneTurn(after, 'L', 'c', Date.now())).toBe(false);
    // `a` failed for good without leaving its lane: `b` is next, `c` after it.
    states.set('a', 'failed');
    expect(await isLaneTurn(after, 'L', 'c', Date.now())).toBe(false);
    expect(await isLaneTurn(after, 'L', 'b', Date.now())).toBe(true);
    await leaveLane(redis, lanes, 'L', 'b');
    expect(await isLaneTurn(after, 'L', 'c', Date.now())).toBe(true);
    expect(await redis.lrange(laneKey(lanes, 'L'), 0, -1)).toEqual(['c']);
  });
});

/** The total of the command lane wait histogram (seconds). */
async function laneWaitSeconds(): Promise<number> {
  const { values } = await commandLaneWait.get();
  return values.filter((v) => v.metricName?.endsWith('_sum')).reduce((sum, v) => sum + v.value, 0);
}
