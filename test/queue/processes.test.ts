import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import { type App, createApp } from '../../src/wiring';
import { settled } from '../support/app';
import { testPrefix } from '../support/redis';
import { waitFor } from '../support/wait';
import { readRecords, sandboxEnv, spawnWorker, stopWorker } from '../support/worker-process';

let sandbox: ToolhostSandbox;
let platform: ToolhostClientFactory;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startToolhostSandbox({ stepMs: 300 });
  platform = ToolhostClientFactory.forSandbox(sandbox);
  env = sandboxEnv(sandbox);
});
afterAll(async () => {
  await platform.close();
  await sandbox.close();
});

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) await stopWorker(child, 'SIGTERM');
});

/** A web-role core in this process (queues only, no workers) and the env of its workers. */
async function setup() {
  const { host, port } = inject('redis');
  const db = Number(process.env.VITEST_POOL_ID ?? 1) % 64;
  const workerEnv = {
    ...env,
    REDIS_URL: `redis://${host}:${port}/${db}`,
    REDIS_KEY_PREFIX: testPrefix(),
    WATCH_POLL_MS: '100',
    QUEUE_LOCK_MS: '1500',
    // Discovery looks once, when a worker first runs (see waitForFirstLook), and not again here.
    DISCOVERY_INTERVAL_MS: '3600000',
    RECORD_FILE: join(mkdtempSync(join(tmpdir(), 'deckhand-rec-')), 'records.jsonl'),
  };
  const web: App = await createApp({ config: loadConfig(workerEnv), logger: silentLogger, sandbox: false });
  return { web, workerEnv };
}

/**
 * Waits until discovery's first look at each subscribed tool is done. Its first look watches a
 * tool's latest build if it is running: made while startWork runs, between mytool's forced build
 * and the build the test starts, it would follow (and announce) that forced build too.
 */
async function waitForFirstLook(web: App, prefix: string, tools: readonly string[]) {
  const keys = tools.flatMap((tool) => [`${prefix}seen:deployment:${tool}`, `${prefix}seen:build:${tool}`]);
  await waitFor(async () => (await web.redis.redis.exists(...keys)) === keys.length, 90_000);
}

/** Starts deployments and builds on the sandbox and watches each on its own card. */
async function startWork(web: App) {
  const client = (tool: string) => platform.forTool(tool);
  const resources = [
    {
      kind: 'deployment' as const,
      tool: 'mytool',
      id: (await client('mytool').components.createDeployment({ forceBuild: true })).deploy_id,
    },
    {
      kind: 'deployment' as const,
      tool: 'demo',
      id: (await client('demo').components.createDeployment({})).deploy_id,
    },
    {
      kind: 'build' as const,
      tool: 'mytool',
      id: (await client('mytool').builds.start({ source_url: 'https://example.org/ok.git' })).name,
    },
    {
      kind: 'build' as const,
      tool: 'demo',
      id: (await client('demo').builds.start({ source_url: 'https://example.org/fail.git' })).name,
    },
  ];
  for (const [index, r] of resources.entries()) {
    await web.services.watches.start({
      ...r,
      handle: { platform: 'slack', conversationId: 'slack:T1:CCARDS', ref: { ts: `card-${index}` } },
    });
  }
  return resources;
}

function subscribe(web: App, conversationId: string, tool: string, failuresOnly = false) {
  return web.services.subscriptions.put({
    conversationId,
    platform: 'slack',
    tool,
    kinds: ['builds', 'deploys'],
    failuresOnly,
    changesOnly: false,
    createdBy: 'slack:UADMIN',
  });
}

describe('watches across processes', () => {
  it('survive a SIGKILL: cards end in their final state and every change is announced exactly once', async () => {
    const { web, workerEnv } = await setup();
    try {
      await subscribe(web, 'slack:T1:CANN', 'mytool');
      await subscribe(web, 'slack:T1:CANN', 'demo');
      const first = await spawnWorker(workerEnv);
      children.push(first);
      await waitForFirstLook(web, workerEnv.REDIS_KEY_PREFIX, ['mytool', 'demo']);
      const resources = await startWork(web);
      await waitFor(
        () => readRecords(workerEnv.RECORD_FILE).filter((r) => r.op === 'update').length >= 4,
        15_000,
      );
      await stopWorker(first, 'SIGKILL');
      const killedAt = readRecords(workerEnv.RECORD_FILE).length;
      children.push(await spawnWorker(workerEnv));
      await settled(web, 60_000);

      const records = readRecords(workerEnv.RECORD_FILE);
      expect(records.slice(killedAt).length).toBeGreaterThan(0);
      for (const [index] of resources.entries()) {
        const last = records.filter((r) => r.op === 'update' && r.ref === `card-${index}`).at(-1);
        expect(last?.status, `card ${index}`).toMatch(/success|danger/);
      }
      const posts = records.filter((r) => r.op === 'post');
      const expected = [
        `mytool: deployment successful|deployment ${resources[0]?.id}`,
        `demo: deployment successful|deployment ${resources[1]?.id}`,
        `mytool: build ok|build ${resources[2]?.id}`,
        `demo: build error|build ${resources[3]?.id}`,
      ];
      expect(posts.map((p) => `${p.title}|${p.footer}`).sort()).toEqual(expected.sort());
      expect(posts.every((p) => p.conversationId === 'slack:T1:CANN')).toBe(true);
    } finally {
      await web.close();
    }
  }, 240_000);

  it('two worker processes share the work: each announcement is delivered once per conversation', async () => {
    const { web, workerEnv } = await setup();
    try {
      for (const conversation of ['slack:T1:CA', 'slack:T1:CB']) {
        await subscribe(web, conversation, 'mytool');
        await subscribe(web, conversation, 'demo');
      }
      await subscribe(web, 'slack:T1:CFAIL', 'demo', true);
      children.push(await spawnWorker(workerEnv), await spawnWorker(workerEnv));
      await waitForFirstLook(web, workerEnv.REDIS_KEY_PREFIX, ['mytool', 'demo']);
      const resources = await startWork(web);
      await settled(web, 60_000);
      const posts = readRecords(workerEnv.RECORD_FILE).filter((r) => r.op === 'post');
      const events = [
        `mytool: deployment successful|deployment ${resources[0]?.id}`,
        `demo: deployment successful|deployment ${resources[1]?.id}`,
        `mytool: build ok|build ${resources[2]?.id}`,
        `demo: build error|build ${resources[3]?.id}`,
      ];
      const expected = [
        ...events.map((e) => `slack:T1:CA|${e}`),
        ...events.map((e) => `slack:T1:CB|${e}`),
        `slack:T1:CFAIL|${events[3]}`,
      ];
      expect(posts.map((p) => `${p.conversationId}|${p.title}|${p.footer}`).sort()).toEqual(expected.sort());
      expect(new Set(posts.map((p) => p.pid)).size).toBeGreaterThanOrEqual(1);
    } finally {
      await web.close();
    }
  }, 240_000);
});
