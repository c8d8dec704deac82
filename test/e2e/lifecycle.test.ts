/**
 * Deckhand's lifecycle as an operator meets it, through the real CLI (compiled dist/): a half-set
 * platform is refused (exit 2, naming the variables) by `start` and `doctor`; `start` never falls back
 * to the terminal chat silently; the HTTP server listens first, so with the Bot API unreachable
 * `/healthz` is 200 and `/readyz` 503 naming Telegram (and the failure is logged) until the API answers;
 * a busy port stops start-up with one line; SIGTERM stops the process within seconds and, in shell
 * mode, its embedded redis-server (checked by pid), which `deckhand status` reads meanwhile; `shell
 * --wait N` stops a log tail still running and exits 1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FakeTelegram } from '../fakes/telegram';
import { useBuiltWithTelegram } from '../support/built-cli';
import { captureOutput, childEnv } from '../support/child-output';
import { runShellScript } from '../support/cli';
import { testPrefix } from '../support/redis';
import { ToggleProxy } from '../support/toggle-proxy';
import { waitFor } from '../support/wait';
import { processAlive } from '../support/worker-process';

const ROOT = join(import.meta.dirname, '..', '..');
const STACK = /\n\s+at .+:\d+:\d+/;

interface Launched {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const launched: Launched[] = [];

/** Starts `node bin/deckhand.mjs <argv>` with exactly `env` (plus PATH/HOME) and stdin left open. */
function launch(argv: string[], env: Record<string, string>): Launched {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'deckhand.mjs'), ...argv], {
    cwd: ROOT,
    env: childEnv(env, { dist: true }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const run = { child, output: captureOutput(child).all, exited };
  launched.push(run);
  return run;
}

/** Runs a command to its end with stdin closed. */
async function runToEnd(argv: string[], env: Record<string, string>) {
  const run = launch(argv, env);
  run.child.stdin?.end();
  const code = await run.exited;
  return { code, output: run.output() };
}

const dataDir = () => mkdtempSync(join(tmpdir(), 'deckhand-lifecycle-'));

function sharedRedisEnv(): Record<string, string> {
  const { host, port } = inject('redis');
  return {
    REDIS_URL: `redis://${host}:${port}/${Number(process.env.VITEST_POOL_ID ?? 1) % 64}`,
    REDIS_KEY_PREFIX: testPrefix(),
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir(),
    SANDBOX: '1',
    SANDBOX_STEP_MS: '20',
    SECRET_KEY: 'd'.repeat(64),
  };
}

let telegram: FakeTelegram;

useBuiltWithTelegram((fake) => {
  telegram = fake;
});

afterAll(() => {
  for (const run of launched) if (run.child.exitCode === null) run.child.kill('SIGKILL');
});

describe('a half-set chat platform', () => {
  it.each([
    [
      'SLACK_BOT_TOKEN alone',
      { SLACK_BOT_TOKEN: 'xoxb-half' },
      'Slack',
      ['SLACK_SIGNING_SECRET', 'SLACK_APP_TOKEN'],
    ],
    ['DISCORD_TOKEN alone', { DISCORD_TOKEN: 'half-token' }, 'Discord', ['DISCORD_APPLICATION_ID']],
    [
      'TELEGRAM_WEBHOOK_SECRET alone',
      { TELEGRAM_WEBHOOK_SECRET: 'hook-secret' },
      'Telegram',
      ['TELEGRAM_BOT_TOKEN'],
    ],
  ])(
    '%s: start and doctor exit 2 naming the missing variables; nothing starts',
    async (_name, half, label, names) => {
      const env = { ...sharedRedisEnv(), ...half };
      const start = await runToEnd(['start'], env);
      expect(start.code, start.output).toBe(2);
      const line = start.output.split('\n').find((l) => l.trimStart().startsWith(`${label}:`)) ?? '';
      for (const name of names) expect(line).toContain(name);
      // Neither the terminal chat nor a server was started instead.
      expect(start.output).not.toMatch(/Services:|terminal chat|Deckhand is serving/);
      expect(start.output).not.toMatch(STACK);
      for (const secret of Object.values(half)) expect(start.output).not.toContain(secret);

      const doctor = await runToEnd(['doctor'], env);
      expect(doctor.code, doctor.output).toBe(2);
      const failed = doctor.output.split('\n').find((l) => l.startsWith(`✗ ${label} settings:`)) ?? '';
      for (const name of names) expect(failed).toContain(name);
    },
    60_000,
  );

  it('start with no platform and nothing on stdin says so and exits 1 (no silent terminal chat)', async () => {
    const run = await runToEnd(['start'], { ...sharedRedisEnv(), SANDBOX: '' });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain('no chat platform is configured');
    expect(run.output).toContain('stdin held no commands');
    expect(run.output).not.toMatch(STACK);
  }, 60_000);
});

describe('start-up and shutdown of `deckhand start`', () => {
  let proxy: ToggleProxy;
  let busy: Server;

  beforeAll(async () => {
    proxy = await ToggleProxy.start(Number(new URL(telegram.apiRoot).port));
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await proxy?.close();
    busy?.close();
  });

  it('with the Bot API unreachable: listens, /healthz 200, /readyz 503 naming telegram, logged; ready once it answers; SIGTERM exits', async () => {
    proxy.down = true;
    const run = launch(['start', '--role', 'web'], {
      ...sharedRedisEnv(),
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: `http://127.0.0.1:${proxy.port}`,
      LOG_LEVEL: 'info',
    });
    const port = await waitFor(() => /on port (\d+)/.exec(run.output())?.[1], 60_000, 50);
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const notReady = await waitFor(
      async () => {
        const response = await fetch(`${base}/readyz`);
        return response.status === 503 ? ((await response.json()) as { notReady?: string[] }) : undefined;
      },
      30_000,
      100,
    );
    expect(notReady.notReady).toEqual(['telegram']);
    await waitFor(
      () => run.output().includes('the Bot API is unreachable; retrying with back-off'),
      30_000,
      100,
    );
    expect(run.output()).not.toContain(telegram.token);
    // Liveness does not follow the platform.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    proxy.down = false;
    await waitFor(async () => (await fetch(`${base}/readyz`)).status === 200, 90_000, 200);
    await waitFor(() => telegram.callsTo('getUpdates').length > 0, 30_000, 100);
    expect(run.output()).toContain('the Bot API answers again');

    run.child.kill('SIGTERM');
    const code = await run.exited;
    expect(code, run.output()).toBe(0);
    expect(run.output()).toContain('SIGTERM received: stopping');
    expect(run.output()).not.toMatch(STACK);
  }, 180_000);

  it('a busy port stops start-up with one line and exit 1', async () => {
    const address = busy.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const run = await runToEnd(['start', '--role', 'web'], {
      ...sharedRedisEnv(),
      PORT: String(port),
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
    });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain(`deckhand: port ${port} is already in use (127.0.0.1:${port})`);
    expect(run.output).not.toContain('Deckhand is serving');
    expect(run.output).not.toMatch(STACK);
  }, 60_000);
});

describe('the terminal chat', () => {
  it('SIGTERM stops it and its embedded redis-server (by pid); `deckhand status` reads that Redis meanwhile', async () => {
    const dir = dataDir();
    const env = { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, SANDBOX_STEP_MS: '20', SHELL_USER: 'tester' };
    const run = launch(['shell', '--sandbox'], env);
    run.child.stdin?.write('/tool status mytool\n');
    await waitFor(() => run.output().includes('Status of mytool'), 60_000, 100);
    const record = JSON.parse(readFileSync(join(dir, 'redis', 'running.json'), 'utf8')) as {
      pid: number;
      owner: number;
    };
    expect(record.owner).toBe(run.child.pid);
    expect(processAlive(record.pid)).toBe(true);

    const status = await runToEnd(['status'], env);
    expect(status.code, status.output).toBe(0);
    expect(status.output).toContain('QUEUE');

    run.child.kill('SIGTERM');
    expect(await run.exited, run.output()).toBe(143);
    expect(processAlive(record.pid)).toBe(false);
    expect(run.output()).not.toMatch(STACK);
    // With no Deckhand running, status says where it looked.
    const after = await runToEnd(['status'], env);
    expect(after.code).toBe(2);
    expect(after.output).toContain('no Deckhand with an embedded Redis is running');
  }, 120_000);

  it('shell --wait N with a log tail still running stops the tail and exits 1', async () => {
    const run = await runShellScript('/logs mytool web --follow\n', { wait: 2 });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(
      'Stopped waiting after 2 s; some work was still running (1 log tail(s) stopped).',
    );
    expect(run.stderr).not.toMatch(STACK);
  }, 90_000);
});
