/**
 * A worker process cut off from Redis by a network partition (a relay that drops every byte both ways
 * without closing anything, see `redis-relay.ts`): once the network is back it gives up its silent
 * connections, connects again and carries on — every change of the watched resources is announced
 * exactly once and every card ends in its final state. `PARTITION_SECONDS` sets the partition's
 * length (5 s here; 30 s measured by hand, when the seconds from the heal to the worker's first
 * post or edit are printed).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import { type App, createApp } from '../../src/wiring';
import { settled } from '../support/app';
import { testPrefix } from '../support/redis';
import { RedisRelay } from '../support/redis-relay';
import { waitFor } from '../support/wait';
import { readRecords, sandboxEnv, spawnWorker, stopWorker } from '../support/worker-process';

const PARTITION_MS = Number(process.env.PARTITION_SECONDS ?? 5) * 1000;

let sandbox: ToolhostSandbox;
let platform: ToolhostClientFactory;
let relay: RedisRelay;
let web: App;
let worker: ChildProcess | undefined;
let workerEnv: Record<string, string>;

beforeAll(async () => {
  const { host, port } = inject('redis');
  const db = Number(process.env.VITEST_POOL_ID ?? 1) % 64;
  sandbox = await startToolhostSandbox({ stepMs: 300 });
  platform = ToolhostClientFactory.forSandbox(sandbox);
  relay = await RedisRelay.start(port);
  const prefix = testPrefix();
  const record = join(mkdtempSync(join(tmpdir(), 'deckhand-rec-')), 'records.jsonl');
  const common = { ...sandboxEnv(sandbox), REDIS_KEY_PREFIX: prefix, WATCH_POLL_MS: '100' };
  workerEnv = { ...common, REDIS_URL: relay.url(db), RECORD_FILE: record };
  web = await createApp({
    config: loadConfig({ ...common, REDIS_URL: `redis://${host}:${port}/${db}` }),
    logger: silentLogger,
    sandbox: false,
  });
});
afterAll(async () => {
  if (worker) await stopWorker(worker, 'SIGKILL');
  await web?.close();
  await relay?.close();
  await platform?.close();
  await sandbox?.close();
});

async function watchDeployment(tool: string, card: string): Promise<string> {
  const id = (await platform.forTool(tool).components.createDeployment({})).deploy_id;
  await web.services.watches.start({
    kind: 'deployment',
    tool,
    id,
    handle: { platform: 'slack', conversationId: 'slack:T1:CCARDS', ref: { ts: card } },
  });
  return id;
}

describe('a worker partitioned from Redis', () => {
  it('resumes after the partition heals: every change announced once, every card final', async () => {
    for (const tool of ['mytool', 'demo']) {
      await web.services.subscriptions.put({
        conversationId: 'slack:T1:CANN',
        platform: 'slack',
        tool,
        kinds: ['deploys'],
        failuresOnly: false,
        changesOnly: false,
        createdBy: 'slack:UADMIN',
      });
    }
    worker = await spawnWorker(workerEnv);
    const before = await watchDeployment('mytool', 'card-before');
    // The worker is following it: its card was edited at least once.
    await waitFor(() => readRecords(workerEnv.RECORD_FILE as string).some((r) => r.op === 'update'), 30_000);

    relay.partition();
    // Work that arrives while the worker cannot reach Redis (queued by a process that can).
    const during = await watchDeployment('demo', 'card-during');
    await new Promise((resolve) => setTimeout(resolve, PARTITION_MS));
    const seenAtHeal = readRecords(workerEnv.RECORD_FILE as string).length;
    relay.heal();
    const healedAt = Date.now();
    await waitFor(() => readRecords(workerEnv.RECORD_FILE as string).length > seenAtHeal, 60_000);
    if (process.env.PARTITION_SECONDS) {
      process.stdout.write(
        `worker resumed ${((Date.now() - healedAt) / 1000).toFixed(2)} s after the heal\n`,
      );
    }
    await settled(web, 90_000);

    const records = readRecords(workerEnv.RECORD_FILE as string);
    for (const card of ['card-before', 'card-during']) {
      const last = records.filter((r) => r.op === 'update' && r.ref === card).at(-1);
      expect(last?.status, card).toBe('success');
    }
    const announced = records
      .filter((r) => r.op === 'post' && r.conversationId === 'slack:T1:CANN')
      .map((r) => `${r.title}|${r.footer}`);
    expect(announced.sort()).toEqual(
      [
        `mytool: deployment successful|deployment ${before}`,
        `demo: deployment successful|deployment ${during}`,
      ].sort(),
    );
  }, 240_000);
});
