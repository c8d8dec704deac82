/**
 * The deployment files run what they say. Every Procfile process type (the Toolforge Build Service
 * runs them: `redis`, `web`, `worker`) is STARTED as written — against the compiled dist/, one platform
 * (Telegram) configured against the fake Bot API and the sandbox services: the Procfile's Redis takes
 * a password, keeps an append-only file and does not evict; the web process answers /readyz 200 and
 * long-polls Telegram; the worker runs and answers /readyz too. compose.yaml runs the same `web` and
 * `worker` commands, and its Redis has the same guarantees; the Dockerfile ships dist/ as non-root
 * with a /healthz check.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import type { FakeTelegram } from '../fakes/telegram';
import { useBuiltWithTelegram } from '../support/built-cli';
import { captureOutput, childEnv } from '../support/child-output';
import { freePort } from '../support/redis-server';

const ROOT = join(import.meta.dirname, '..', '..');
const PASSWORD = 'procfile-test-password-0123';

/** `name: command` lines of the Procfile. */
function procfile(): Record<string, string> {
  const types: Record<string, string> = {};
  for (const line of readFileSync(join(ROOT, 'Procfile'), 'utf8').split('\n')) {
    const match = /^([a-z][a-z0-9_-]*):\s*(.+)$/.exec(line.trim());
    if (match?.[1] && match[2]) types[match[1]] = match[2];
  }
  return types;
}

interface Started {
  child: ChildProcess;
  output: () => string;
}

const children: ChildProcess[] = [];

/** Starts a Procfile command as the platform does (`sh -c`), in the project directory. */
function startProcess(command: string, env: Record<string, string>): Started {
  const child = spawn('sh', ['-c', command], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: `sh -c` does not pass a signal on to the command it runs, so the whole
    // group (shell, node, redis-server) is signalled at the end.
    detached: true,
  });
  children.push(child);
  return { child, output: captureOutput(child).all };
}

/** Waits for the process to print its port, then for `/readyz` to answer 200. */
async function waitReady(process: Started): Promise<number> {
  const port = await vi.waitFor(
    () => {
      if (process.child.exitCode !== null)
        throw new Error(`exited ${process.child.exitCode}:\n${process.output()}`);
      const found = /on port (\d+)/.exec(process.output())?.[1];
      if (!found) throw new Error(`not serving yet:\n${process.output()}`);
      return Number(found);
    },
    { timeout: 60_000, interval: 100 },
  );
  await vi.waitFor(
    async () => {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(response.status).toBe(200);
    },
    { timeout: 30_000, interval: 100 },
  );
  return port;
}

/** True while any process of group `pgid` runs. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits up to 15 s for group `pgid` to end after SIGTERM, then kills what is left. */
async function stopGroup(pgid: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
}

let telegram: FakeTelegram;

useBuiltWithTelegram((fake) => {
  telegram = fake;
});

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    // The group may outlive the shell: give it time to stop, then make sure nothing is left running.
    if (child.pid) await stopGroup(child.pid);
  }
}, 60_000);

describe('deployment files', () => {
  it('compose.yaml runs the Procfile commands, and its Redis keeps an AOF and does not evict', () => {
    const types = procfile();
    const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')) as {
      services: Record<string, { command: string[] | string }>;
    };
    const command = (name: string) => {
      const c = compose.services[name]?.command;
      return Array.isArray(c) ? c.join(' ') : c;
    };
    expect(Object.keys(types).sort()).toEqual(['redis', 'web', 'worker']);
    expect(command('web')).toBe(types.web);
    expect(command('worker')).toBe(types.worker);
    expect(types.web).toBe(
      'node --max-semi-space-size=2 --heap-growing-percent=20 bin/deckhand.mjs start --role web',
    );
    expect(types.worker).toBe('node bin/deckhand.mjs start --role worker');
    const redis = command('redis');
    expect(redis).toMatch(/--appendonly yes/);
    expect(redis).toMatch(/--maxmemory-policy noeviction/);
    expect(redis).toMatch(/--requirepass/);
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM node:20-bookworm-slim AS build$/m);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n?.*\/healthz/m);
  });

  it("the one-process Dockerfile and `npm start` run node with the web process type's flags", () => {
    const webFlags = (procfile().web ?? '').split(' bin/deckhand.mjs')[0];
    expect(webFlags).toBe('node --max-semi-space-size=2 --heap-growing-percent=20');
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(cmd ?? '[]').join(' ')).toBe(`${webFlags} bin/deckhand.mjs start --role all`);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe(`${webFlags} bin/deckhand.mjs start`);
  });

  it('starts every Procfile process type: Redis, then web (/readyz 200, polling Telegram) and worker', async () => {
    const types = procfile();
    const redisPort = await freePort();
    const redis = startProcess(types.redis as string, {
      REDIS_PASSWORD: PASSWORD,
      REDIS_PORT: String(redisPort),
      REDIS_DIR: mkdtempSync(join(tmpdir(), 'deckhand-procfile-redis-')),
    });
    const client = new Redis({
      port: redisPort,
      host: '127.0.0.1',
      password: PASSWORD,
      lazyConnect: true,
      retryStrategy: () => 100,
    });
    client.on('error', () => undefined);
    await vi.waitFor(async () => expect(await client.ping()).toBe('PONG'), {
      timeout: 20_000,
      interval: 100,
    });
    expect(await client.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
    expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
    // Without the password Redis refuses (the same client with the password was accepted above).
    const anonymous = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true });
    anonymous.on('error', () => undefined);
    await expect(anonymous.ping()).rejects.toThrow(/NOAUTH/);
    anonymous.disconnect();
    client.disconnect();
    expect(redis.child.exitCode).toBeNull();

    const env = {
      DECKHAND_RUN: 'dist',
      REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${redisPort}`,
      REDIS_KEY_PREFIX: 'procfile:',
      SECRET_KEY: 'c'.repeat(64),
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      SANDBOX: '1',
      SANDBOX_STEP_MS: '20',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
    };
    const web = startProcess(types.web as string, {
      ...env,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-web-')),
    });
    const worker = startProcess(types.worker as string, {
      ...env,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-worker-')),
    });
    await Promise.all([waitReady(web), waitReady(worker)]);
    expect(web.output()).toContain('Deckhand is serving telegram');
    expect(worker.output()).toContain('Deckhand is serving telegram');
    // The web process receives Telegram traffic (long polling); the worker only sends.
    await vi.waitFor(() => expect(telegram.callsTo('getUpdates').length).toBeGreaterThan(0), {
      timeout: 20_000,
    });
    telegram.assertClean();
    // SIGTERM stops both within seconds (a process manager's stop timeout, 15 s here, is never reached).
    for (const started of [web, worker]) process.kill(-(started.child.pid as number), 'SIGTERM');
    await vi.waitFor(
      () => {
        expect(groupAlive(web.child.pid as number)).toBe(false);
        expect(groupAlive(worker.child.pid as number)).toBe(false);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(web.output()).toContain('SIGTERM received: stopping');
  }, 120_000);
});
