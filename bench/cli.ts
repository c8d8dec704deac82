/**
 * CLI start-up and idle memory: `deckhand --help` wall time and peak RSS (median of 5; 1 in quick
 * mode), compiled dist/ against the TypeScript sources through tsx (the same-run baseline), and the
 * resident memory of an idle `deckhand start --role web` (with the Procfile's node flags) with Telegram
 * configured against the fake Bot API — with the real-service configuration of a deployment (no
 * emulators in the process), and, for context, in sandbox mode (the emulators run inside it). Peak RSS
 * comes from GNU time (`%M`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeTelegram } from '../test/fakes/telegram';
import { ensureBuilt } from '../test/support/build';
import { memoryOf } from '../test/support/process-memory';
import type { BenchContext, Benchmark } from './lib/context';
import { deployedNodeFlags, ROOT, spawnChild } from './lib/processes';
import { type BenchResult, compareFigure, infoFigure, limitFigure } from './lib/results';
import { percentile, round, sleep } from './lib/stats';

const TIME = '/usr/bin/time';
const MB = 1024 * 1024;

/** One `deckhand --help`: wall seconds and peak RSS in MB. */
function helpOnce(run: 'dist' | 'src'): { seconds: number; peakMb: number } {
  const started = process.hrtime.bigint();
  const result = spawnSync(
    TIME,
    ['-f', 'peak-kb %M', process.execPath, join(ROOT, 'bin', 'deckhand.mjs'), '--help'],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DECKHAND_RUN: run },
      encoding: 'utf8',
    },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const kb = Number(/peak-kb (\d+)/.exec(result.stderr)?.[1]);
  if (result.status !== 0 || !Number.isFinite(kb))
    throw new Error(`deckhand --help failed: ${result.stderr}`);
  return { seconds, peakMb: kb / 1024 };
}

/** Medians of `n` runs. */
function help(run: 'dist' | 'src', n: number): { seconds: number; peakMb: number } {
  const runs = Array.from({ length: n }, () => helpOnce(run));
  return {
    seconds: percentile(
      runs.map((r) => r.seconds),
      50,
    ),
    peakMb: percentile(
      runs.map((r) => r.peakMb),
      50,
    ),
  };
}

/** RSS (MB) of an idle `start --role web` once /readyz answers and `idleMs` have passed. */
async function idleWeb(ctx: BenchContext, sandbox: boolean, idleMs: number): Promise<number> {
  const telegram = await startFakeTelegram();
  const child = spawnChild([join(ROOT, 'bin', 'deckhand.mjs'), 'start', '--role', 'web'], {
    nodeFlags: deployedNodeFlags(),
    env: {
      DECKHAND_RUN: 'dist',
      REDIS_URL: ctx.redisUrl,
      REDIS_KEY_PREFIX: `bench-cli-${sandbox ? 'sandbox' : 'real'}:`,
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: join(ctx.dir, sandbox ? 'sandbox' : 'real'),
      LOG_LEVEL: 'warn',
      // A deployment's configuration: real services (never contacted while idle) — no emulator loaded.
      ...(sandbox
        ? { SANDBOX: '1' }
        : { TOOLHOST_URL: 'http://127.0.0.1:9', SOURCEHOST_URL: 'http://127.0.0.1:9' }),
    },
  });
  try {
    const line = await child.waitForLine('on port', 60_000);
    const port = Number(/on port (\d+)/.exec(line)?.[1]);
    for (let i = 0; i < 300; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await sleep(100);
    }
    await sleep(idleMs);
    return memoryOf(child.process.pid).rss / MB;
  } finally {
    await child.stop();
    await telegram.close();
  }
}

/** See the module comment. */
export const cliBenchmark: Benchmark = {
  id: 'cli',
  title: 'CLI start-up and idle memory',
  async run(ctx): Promise<BenchResult> {
    const started = Date.now();
    const base = { id: 'cli', title: 'CLI start-up and idle memory', params: {}, notes: [] as string[] };
    if (!existsSync(TIME)) {
      return {
        ...base,
        status: 'not run',
        reason: `needs GNU time at ${TIME} (apt-get install time)`,
        figures: [],
        seconds: 0,
      };
    }
    ensureBuilt();
    const n = ctx.quick ? 1 : 5;
    helpOnce('dist'); // warm the file cache for both
    helpOnce('src');
    const compiled = help('dist', n);
    const tsx = help('src', n);
    const idleMs = ctx.quick ? 500 : 5000;
    const idleReal = await idleWeb(ctx, false, idleMs);
    const idleSandbox = await idleWeb(ctx, true, idleMs);
    return {
      ...base,
      status: 'ran',
      params: { runs: n, idleMs },
      figures: [
        limitFigure('--help wall time, compiled (s, median)', round(compiled.seconds, 3), 0.3, 's'),
        compareFigure(
          '--help wall time, compiled vs tsx (s)',
          round(compiled.seconds, 3),
          round(tsx.seconds, 3),
          'tsx',
          's',
        ),
        limitFigure('--help peak RSS, compiled (MB, median)', round(compiled.peakMb, 1), 70, 'MB'),
        compareFigure(
          '--help peak RSS, compiled vs tsx (MB)',
          round(compiled.peakMb, 1),
          round(tsx.peakMb, 1),
          'tsx',
          'MB',
        ),
        limitFigure('start --role web idle RSS, Telegram, real services (MB)', round(idleReal, 1), 100, 'MB'),
        infoFigure(
          'start --role web idle RSS, Telegram, sandbox emulators (MB)',
          round(idleSandbox, 1),
          'MB',
        ),
      ],
      seconds: (Date.now() - started) / 1000,
    };
  },
};
