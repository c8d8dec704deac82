/**
 * The log lines of every job of every tool: what Loki holds behind the jobs API's `/logs` and the
 * logs API. Jobs append to it as their pods run; both APIs read it. One store per sandbox context.
 *
 * Lines outlive their job, as in Loki: deleting a job does not delete its logs (the jobs API still
 * serves them while the job is gone, J `tjf/api/jobs.py api_get_logs` only rejects filelog jobs).
 */
import type { SandboxContext } from './context';

/** Where a line came from: a pod's stdout/stderr, or an event written by the jobs API. */
export type LogSource = 'pod' | 'jobs-api';

/** One stored log line. Times are epoch milliseconds. */
export interface StoredLogLine {
  /** Insertion order; breaks ties between lines with the same time. */
  seq: number;
  time: number;
  pod: string;
  container: string;
  message: string;
  source: LogSource;
}

/** A line to append; `time` defaults to now. */
export type NewLogLine = Omit<StoredLogLine, 'seq' | 'time' | 'source'> & {
  time?: number | undefined;
  source?: LogSource;
};

/** Called with each line appended to a job's log. */
export type LogListener = (line: StoredLogLine) => void;

/** Lines kept per job; the oldest are dropped beyond this (a `yes` job must not eat the heap). */
export const MAX_LINES_PER_JOB = 50_000;

const key = (tool: string, job: string) => `${tool}\u0000${job}`;

/** Log lines of all jobs, kept sorted by (time, seq), with live listeners per job. */
export class LogStore {
  private readonly lines = new Map<string, StoredLogLine[]>();
  private readonly listeners = new Map<string, Set<LogListener>>();
  private seq = 0;

  /** Appends one line to a job's log (in time order) and tells the job's listeners. */
  append(tool: string, job: string, line: NewLogLine): StoredLogLine {
    const stored: StoredLogLine = {
      seq: ++this.seq,
      time: line.time ?? Date.now(),
      pod: line.pod,
      container: line.container,
      message: line.message,
      source: line.source ?? 'pod',
    };
    const k = key(tool, job);
    let list = this.lines.get(k);
    if (!list) {
      list = [];
      this.lines.set(k, list);
    }
    const last = list[list.length - 1];
    if (!last || last.time <= stored.time) list.push(stored);
    else list.splice(firstIndexAfter(list, stored.time), 0, stored);
    // Trim in batches so a chatty job does not pay a splice per line.
    if (list.length > MAX_LINES_PER_JOB + 1000) list.splice(0, list.length - MAX_LINES_PER_JOB);
    for (const listener of this.listeners.get(k) ?? []) listener(stored);
    return stored;
  }

  /** All lines of a job, oldest first (a live array: copy before holding on to it). */
  all(tool: string, job: string): readonly StoredLogLine[] {
    return this.lines.get(key(tool, job)) ?? [];
  }

  /** Lines with `from <= time <= to`, oldest first. */
  range(tool: string, job: string, from: number, to: number): StoredLogLine[] {
    const list = this.all(tool, job);
    const start = firstIndexAtOrAfter(list, from);
    const end = firstIndexAfter(list, to);
    return list.slice(start, end);
  }

  /** Calls `listener` with every line appended to the job from now on; returns an unsubscribe. */
  subscribe(tool: string, job: string, listener: LogListener): () => void {
    const k = key(tool, job);
    let set = this.listeners.get(k);
    if (!set) {
      set = new Set();
      this.listeners.set(k, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(k);
    };
  }
}

/** Index of the first line whose time is >= `time`. */
function firstIndexAtOrAfter(list: readonly StoredLogLine[], time: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as StoredLogLine).time < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first line whose time is > `time`. */
function firstIndexAfter(list: readonly StoredLogLine[], time: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as StoredLogLine).time <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const stores = new WeakMap<SandboxContext, LogStore>();

/** The log store of a sandbox, created on first use (shared by the jobs and logs areas). */
export function logStoreOf(ctx: SandboxContext): LogStore {
  let store = stores.get(ctx);
  if (!store) {
    store = new LogStore();
    stores.set(ctx, store);
  }
  return store;
}
