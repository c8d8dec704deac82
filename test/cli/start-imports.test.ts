/**
 * What a deployed `deckhand start --role web` loads (compiled dist/): with one platform (Telegram)
 * and real services it imports that platform's SDK and none of the emulators (hono, selfsigned and
 * busboy are theirs), nor the chart renderer (echarts, @resvg/resvg-js), nor yaml, nor the other
 * platforms' SDKs — the idle-memory target (≤ 100 MB, `npm run bench -- --only idle`) rests on
 * it. With `--sandbox` the emulators run in their own process (`deckhand sandbox`, not recorded: the
 * recorder is this process's `--import`), so Deckhand loads none of them either.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { FakeTelegram } from '../fakes/telegram';
import { useBuiltWithTelegram } from '../support/built-cli';
import { childEnv } from '../support/child-output';
import { importRecord } from '../support/import-record';

const ROOT = join(import.meta.dirname, '..', '..');
const NOT_FOR_WEB = [
  'hono',
  '@hono/node-server',
  'selfsigned',
  'busboy',
  'echarts',
  '@resvg/resvg-js',
  'yaml',
  'discord.js',
  '@slack/bolt',
];

let telegram: FakeTelegram;

useBuiltWithTelegram((fake) => {
  telegram = fake;
});

/** Starts `deckhand start --role web [...extra]` until it serves, stops it, and returns the packages it imported. */
async function importsOfStart(extra: string[], env: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'deckhand-start-imports-'));
  const record = importRecord(dir);
  const { host, port } = inject('redis');
  const child = spawn(
    process.execPath,
    [...record.nodeArgs, join(ROOT, 'bin', 'deckhand.mjs'), 'start', '--role', 'web', ...extra],
    {
      cwd: ROOT,
      env: childEnv(
        {
          ...record.env,
          SECRET_KEY: 'a'.repeat(64),
          REDIS_URL: `redis://${host}:${port}`,
          REDIS_KEY_PREFIX: `start-imports-${extra.length}:`,
          TELEGRAM_BOT_TOKEN: telegram.token,
          TELEGRAM_API_ROOT: telegram.apiRoot,
          HOST: '127.0.0.1',
          PORT: '0',
          DATA_DIR: dir,
          LOG_LEVEL: 'warn',
          ...env,
        },
        { dist: true },
      ),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (/Deckhand is serving telegram on port \d+/.test(output)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then((code) => reject(new Error(`start exited (${code}) before serving:\n${output}`)));
    });
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return record.read();
}

describe('deckhand start --role web', () => {
  it('with one platform and real services loads no emulator, chart renderer, yaml or other SDK', async () => {
    const deployed = await importsOfStart([], {
      // Real services (nothing is contacted while it starts): no emulator is needed.
      TOOLHOST_URL: 'http://127.0.0.1:9',
      MEDIA_API_URL: 'http://127.0.0.1:9',
      SOURCEHOST_URL: 'http://127.0.0.1:9',
    });
    expect(deployed).toContain('grammy');
    expect(deployed).toContain('bullmq');
    expect(deployed.filter((name) => NOT_FOR_WEB.includes(name))).toEqual([]);

    const sandboxed = await importsOfStart(['--sandbox'], {});
    expect(sandboxed).toEqual(expect.arrayContaining(['grammy', 'bullmq']));
    expect(sandboxed.filter((name) => ['hono', 'selfsigned', 'busboy'].includes(name))).toEqual([]);
  }, 180_000);
});
