/**
 * The ack benchmark's load generator (bench/load-generator.ts): a child process of its own, so the
 * latencies it measures are not delayed by the fakes and sandboxes of the benchmark process, and one
 * process for every round of a run, so its code is compiled and warm when a round measures.
 *
 * (A new process per round would time its own start-up: each round's first responses would be read
 * late, all at once, and both the bare Bolt's and Deckhand's ack p99 would be that start-up, whatever
 * the servers did.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadRun, LoadTarget } from './command-load';
import { toForeground } from './priority';
import { type Child, spawnTs } from './processes';

/** A running load generator: one load run at a time. */
export interface LoadGenerator {
  child: Child;
  /** Sends `rate` commands a second for `seconds` to `target`; resolves with the run. */
  run(target: LoadTarget, rate: number, seconds: number): Promise<LoadRun>;
}

/** Starts the load generator; its runs are written under `dir`. Stop it with `child.stop()`. */
export function startLoadGenerator(dir: string): LoadGenerator {
  const child = spawnTs('bench/load-generator.ts', { env: {}, input: true });
  // The load generator keeps the normal priority when the benchmark process runs in the background.
  toForeground(child.process.pid);
  let runs = 0;
  let busy: Promise<unknown> = Promise.resolve();
  const once = async (target: LoadTarget, rate: number, seconds: number): Promise<LoadRun> => {
    runs += 1;
    const out = join(dir, `load-${runs}.json`);
    child.process.stdin?.write(`${JSON.stringify({ target, rate, seconds, out })}\n`);
    await child.waitForLine(`done ${out}`, (seconds + 60) * 1000);
    const run = JSON.parse(readFileSync(out, 'utf8')) as Omit<LoadRun, 'sentAt'> & {
      sentAt: [string, number][];
    };
    return { ...run, sentAt: new Map(run.sentAt) };
  };
  return {
    child,
    run(target, rate, seconds) {
      const next = busy.then(() => once(target, rate, seconds));
      busy = next.catch(() => undefined);
      return next;
    },
  };
}
