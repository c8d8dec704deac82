/**
 * Writes a queued command hands to its job instead of awaiting them (its audit entry): the job
 * awaits them before it ends, while it leaves its lane, so they share that round trip. A crash
 * before they are done is a crash before the job ended (it runs again, see `command-processor.ts`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const writes = new AsyncLocalStorage<Promise<unknown>[]>();

/** Runs `work` as a job that collects the writes handed to it in `into`. */
export function collectingJobWrites<T>(into: Promise<unknown>[], work: () => Promise<T>): Promise<T> {
  return writes.run(into, work);
}

/** Hands `write` to the job running now; false (and nothing done) outside a job, to be awaited there. */
export function deferToJob(write: Promise<unknown>): boolean {
  const current = writes.getStore();
  if (!current) return false;
  write.catch(() => undefined);
  current.push(write);
  return true;
}
