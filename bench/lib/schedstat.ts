/**
 * How a process's main thread (its event loop) spent a load run, from the kernel's scheduler
 * statistics (/proc/<pid>/task/<pid>/schedstat, see the kernel's sched-stats documentation): time on
 * a CPU, and time it was ready to run but waited for one (run-queue wait). The first is the work a
 * server does per request; the second is time its acks spent behind other processes — on one small
 * machine, the price of the worker, Redis and the fakes beside it.
 */
import { readFileSync } from 'node:fs';

/** Nanoseconds on a CPU and waiting for one, so far. */
export interface SchedTimes {
  runNs: number;
  waitNs: number;
}

/** The main thread's scheduler times now; undefined where there is no schedstat. */
export function schedTimesOf(pid: number | undefined): SchedTimes | undefined {
  if (pid === undefined) return undefined;
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return run !== undefined && wait !== undefined ? { runNs: run, waitNs: wait } : undefined;
  } catch {
    return undefined;
  }
}

/** `after - before`, or undefined when either is unknown. */
export function schedDelta(before?: SchedTimes, after?: SchedTimes): SchedTimes | undefined {
  if (!before || !after) return undefined;
  return { runNs: after.runNs - before.runNs, waitNs: after.waitNs - before.waitNs };
}

/** Adds scheduler times (undefined if any is unknown). */
export function schedSum(parts: (SchedTimes | undefined)[]): SchedTimes | undefined {
  let runNs = 0;
  let waitNs = 0;
  for (const part of parts) {
    if (!part) return undefined;
    runNs += part.runNs;
    waitNs += part.waitNs;
  }
  return { runNs, waitNs };
}
