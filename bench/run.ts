/**
 * `npm run bench [-- --quick] [-- --only ack,fanout] [-- --profile]`: runs the benchmarks one after the
 * other on this machine (everything on 127.0.0.1, one redis-server started for the run), prints one
 * table — each figure with its same-run baseline, the ratio and the target — and writes
 * bench/results.json. `--quick` shrinks every benchmark to a smoke test (CI): it checks that each still
 * runs and produces its figures, and does not judge targets. `--profile` writes V8 CPU profiles of the
 * Deckhand processes (and of benchmark 1's bare Bolt app) under .data/bench-profiles/.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startTestRedis } from '../test/support/redis-server';
import { ackBenchmark } from './ack';
import { cliBenchmark } from './cli';
import { fanoutBenchmark } from './fanout';
import { idleBenchmark } from './idle';
import type { Benchmark } from './lib/context';
import { killAllChildren, ROOT } from './lib/processes';
import { summarizeProfiles } from './lib/profile';
import type { BenchResult } from './lib/results';
import { renderMarkdown, renderTable } from './lib/table';
import { logTailBenchmark } from './log-tail';
import { redisCostBenchmark } from './redis-cost';
import { renderBenchmark } from './render';
import { telegramGroupBenchmark } from './telegram-group';
import { uploadBenchmark } from './upload';
import { watchScaleBenchmark } from './watch-scale';

const BENCHMARKS: Benchmark[] = [
  ackBenchmark,
  fanoutBenchmark,
  uploadBenchmark,
  watchScaleBenchmark,
  logTailBenchmark,
  telegramGroupBenchmark,
  renderBenchmark,
  cliBenchmark,
  idleBenchmark,
  redisCostBenchmark,
];

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      profile: { type: 'boolean', default: false },
      markdown: { type: 'boolean', default: false },
    },
  });
  const quick = values.quick ?? false;
  const only = values.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((id) => !BENCHMARKS.some((b) => b.id === id)) ?? [];
  if (unknown.length > 0) {
    process.stderr.write(
      `Unknown benchmark(s): ${unknown.join(', ')}. Known: ${BENCHMARKS.map((b) => b.id).join(', ')}.\n`,
    );
    return 2;
  }
  const selected = BENCHMARKS.filter((b) => !only || only.includes(b.id));
  const profileDir = values.profile ? join(ROOT, '.data', 'bench-profiles') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'deckhand-bench-'));
  const started = Date.now();
  const log = (message: string) =>
    process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
  const redis = await startTestRedis();
  // An interrupted run (Ctrl-C, CI's timeout) leaves no process behind.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAllChildren();
      void redis.stop().finally(() => process.exit(130));
    });
  }
  const results: BenchResult[] = [];
  try {
    for (const bench of selected) {
      const dir = join(scratch, bench.id);
      mkdirSync(dir, { recursive: true });
      log(`${bench.title}: starting${quick ? ' (quick)' : ''}`);
      const benchStarted = Date.now();
      try {
        const result = await bench.run({
          quick,
          redisUrl: `redis://${redis.host}:${redis.port}`,
          dir,
          ...(profileDir ? { profileDir } : {}),
          log,
        });
        results.push(result);
        log(`${bench.title}: ${result.status} in ${result.seconds.toFixed(1)} s`);
      } catch (error) {
        const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
        log(
          `${bench.title}: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        results.push({
          id: bench.id,
          title: bench.title,
          status: 'failed',
          reason,
          figures: [],
          params: {},
          notes: [],
          seconds: (Date.now() - benchStarted) / 1000,
        });
      }
    }
  } finally {
    await redis.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  const totalSeconds = (Date.now() - started) / 1000;
  const table = values.markdown ? renderMarkdown(results, quick) : renderTable(results, quick);
  process.stdout.write(`\n${table}\n\n`);
  for (const result of results) {
    for (const note of result.notes) process.stdout.write(`${result.title}: ${note}\n`);
  }
  process.stdout.write(
    `\n${results.length} benchmark(s) in ${totalSeconds.toFixed(0)} s on ${cpus().length} cores${quick ? ' (quick: targets not judged)' : ''}.\n`,
  );
  if (profileDir) {
    process.stdout.write(`\nCPU profiles (.data/bench-profiles/, open them in Chrome DevTools):\n`);
    for (const line of summarizeProfiles(profileDir, ROOT)) process.stdout.write(`${line}\n`);
  }
  const file = join(ROOT, 'bench', 'results.json');
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), quick, node: process.version, cores: cpus().length, cpu: cpus()[0]?.model, totalSeconds, results }, null, 2)}\n`,
  );
  process.stdout.write(`Results written to bench/results.json.\n`);
  // Quick mode is a smoke test: it fails only when a benchmark broke, never on a missed target.
  return results.some((r) => r.status === 'failed') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
