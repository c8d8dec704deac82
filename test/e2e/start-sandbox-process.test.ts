/**
 * `deckhand start --sandbox` with a chat platform (Telegram, against the fake Bot API) runs the
 * emulators in a child process (`deckhand sandbox`): the Deckhand process imports none of
 * the emulators' packages, a `/deploy` still runs end to end against the child's tool platform, a
 * SIGTERM leaves no child behind, and a child that dies stops Deckhand with one line and exit 1.
 * Runs the compiled CLI (dist/), as deployed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { FakeTelegram } from '../fakes/telegram';
import { useBuiltWithTelegram } from '../support/built-cli';
import { captureOutput, childEnv } from '../support/child-output';
import { importRecord } from '../support/import-record';
import { testPrefix } from '../support/redis';
import { waitFor } from '../support/wait';
import { processAlive } from '../support/worker-process';

const ROOT = join(import.meta.dirname, '..', '..');
/** Packages only the emulators import (their HTTP servers, certificates, multipart parsing). */
const EMULATOR_PACKAGES = ['hono', '@hono/node-server', 'selfsigned', 'busboy'];
const ADMIN = 701;

let telegram: FakeTelegram;
const started: ChildProcess[] = [];

useBuiltWithTelegram((fake) => {
  telegram = fake;
}, 180_000);

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  imports: () => string[];
}

/** Starts `deckhand start --sandbox` (recording its imports) and waits until it serves Telegram. */
async function startDeckhand(): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'deckhand-sandbox-process-'));
  const record = importRecord(dir);
  const { host, port } = inject('redis');
  const db = Number(process.env.VITEST_POOL_ID ?? 1) % 64;
  const child = spawn(
    process.execPath,
    [...record.nodeArgs, join(ROOT, 'bin', 'deckhand.mjs'), 'start', '--sandbox'],
    {
      cwd: ROOT,
      env: childEnv(
        {
          ...record.env,
          REDIS_URL: `redis://${host}:${port}/${db}`,
          REDIS_KEY_PREFIX: testPrefix(),
          DATA_DIR: dir,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          SANDBOX_STEP_MS: '20',
          SECRET_KEY: randomBytes(32).toString('hex'),
          TELEGRAM_BOT_TOKEN: telegram.token,
          TELEGRAM_API_ROOT: telegram.apiRoot,
          ADMINS: `telegram:${ADMIN}`,
        },
        { dist: true },
      ),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  started.push(child);
  const output = captureOutput(child).all;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await waitFor(() => {
    if (child.exitCode !== null) throw new Error(`deckhand exited with ${child.exitCode}:\n${output()}`);
    return output().includes('Deckhand is serving telegram');
  }, 90_000);
  return {
    child,
    output,
    exited,
    imports: record.read,
  };
}

/** The processes whose parent is `pid` (from /proc), with their command lines. */
function childrenOf(pid: number): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name in parentheses: state, ppid, …
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      found.push({
        pid: Number(entry),
        cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' '),
      });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The one `deckhand sandbox` child of the Deckhand process. */
function emulatorsChild(run: Run): number {
  const sandboxes = childrenOf(run.child.pid as number).filter((p) =>
    /deckhand\.mjs sandbox$/.test(p.cmdline.trim()),
  );
  expect(sandboxes).toHaveLength(1);
  return (sandboxes[0] as { pid: number }).pid;
}

describe('deckhand start --sandbox with a chat platform', () => {
  it('runs the emulators in their own process, deploys through it, and leaves no child after SIGTERM', async () => {
    const run = await startDeckhand();
    expect(run.output()).toContain(
      'Services: tool platform, calendar, media host, source host, Phabricator emulated (sandbox).',
    );
    expect(run.output()).toContain('Sandbox time is compressed: a build or deployment step takes 20 ms');
    const emulators = emulatorsChild(run);

    const user = telegram.user(ADMIN, 'Ada');
    const chat = telegram.privateChat(user);
    telegram.sendText(user, chat, '/deploy mytool');
    const done = await waitFor(
      () =>
        telegram
          .botMessages(chat.id)
          .find((m) => /Deploy mytool/.test(m.text ?? '') && /successful/.test(m.text ?? '')),
      90_000,
      100,
    );
    expect(done.text).toMatch(/Status\s*:?\s*successful/);

    // A tool the emulator does not have is named as such, with its tools (as in-process).
    telegram.sendText(user, chat, '/deploy nosuchtool');
    const unknown = await waitFor(
      () => telegram.botMessages(chat.id).find((m) => (m.text ?? '').includes('nosuchtool')),
      60_000,
      100,
    );
    expect(unknown.text).toContain('Tool nosuchtool does not exist on the sandbox platform.');
    expect(unknown.text).toMatch(/Its tools are: .*mytool/);

    // The calendar emulator's seeded application password has spaces: it reaches Deckhand whole.
    telegram.sendText(user, chat, '/event create "Child meetup" --start "2026-12-20 18:00"');
    const event = await waitFor(
      () => telegram.botMessages(chat.id).find((m) => /Child meetup|calendar credentials/.test(m.text ?? '')),
      60_000,
      100,
    );
    expect(event.text).not.toMatch(/credentials/);
    expect(event.text).toMatch(/Child meetup[\s\S]*20 Dec 2026/);

    // The Deckhand process loaded its platform's SDK and none of the emulators' packages.
    const imports = run.imports();
    expect(imports).toContain('grammy');
    expect(imports.filter((name) => EMULATOR_PACKAGES.includes(name))).toEqual([]);

    run.child.kill('SIGTERM');
    await run.exited;
    await waitFor(() => !processAlive(emulators), 15_000, 100);
    expect(processAlive(emulators)).toBe(false);
  }, 240_000);

  it('stops with one line and exit 1 when the emulators process dies', async () => {
    const run = await startDeckhand();
    process.kill(emulatorsChild(run), 'SIGKILL');
    const code = await run.exited;
    expect(code).toBe(1);
    expect(run.output()).toContain(
      'deckhand: the sandbox emulators process exited (signal SIGKILL); stopping.',
    );
    expect(run.output()).not.toMatch(/\n\s+at .*\.(js|ts):\d+/);
  }, 240_000);
});
