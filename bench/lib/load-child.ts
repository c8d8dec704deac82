/**
 * Runs one load run of signed slash commands in a child process (bench/load-generator.ts), so the
 * latencies it measures are not delayed by the fakes and sandboxes of the benchmark process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadRun, LoadTarget } from './command-load';
import { toForeground } from './priority';
import { spawnTs } from './processes';

let runs = 0;

/** Sends `rate` commands a second for `seconds` from a child process; resolves with the run. */
export async function commandLoadInChild(
  dir: string,
  target: LoadTarget,
  rate: number,
  seconds: number,
): Promise<LoadRun> {
  runs += 1;
  const out = join(dir, `load-${runs}.json`);
  const child = spawnTs('bench/load-generator.ts', {
    env: { LOAD_SPEC: JSON.stringify({ target, rate, seconds, out }) },
  });
  // The load generator keeps the normal priority when the benchmark process runs in the background.
  toForeground(child.process.pid);
  try {
    await child.waitForLine('done', (seconds + 60) * 1000);
  } finally {
    await child.stop();
  }
  const run = JSON.parse(readFileSync(out, 'utf8')) as Omit<LoadRun, 'sentAt'> & {
    sentAt: [string, number][];
  };
  return { ...run, sentAt: new Map(run.sentAt) };
}
