/**
 * Carries the invocation id (see `runWithInvocation` in `src/log.ts`) across the queues: a job
 * enqueued while a command's work runs has the id in its data, and its processor — later, maybe in
 * another process — runs under that id again, so its log lines, upstream calls, card edits and the
 * jobs it enqueues in turn are tagged with the command that caused them.
 */
import { type BulkJobOptions, type Job, type JobsOptions, type Processor, Queue } from 'bullmq';
import { currentInvocationId, getProcessLogger, runWithInvocation } from '../log';

/** The field of a job's data that holds the id of the invocation that caused it. */
export const INVOCATION_FIELD = 'invocationId';

/** The invocation id a job's data carries, if any. */
export function invocationOf(job: Pick<Job, 'data'> | undefined): string | undefined {
  const data = job?.data as Record<string, unknown> | undefined;
  const id = data && typeof data === 'object' ? data[INVOCATION_FIELD] : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * `data` with the current invocation id added (a plain object only; without a current invocation,
 * or when it already names one, `data` unchanged).
 */
export function withInvocation<T>(data: T): T {
  const id = currentInvocationId();
  if (!id || data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  if (INVOCATION_FIELD in (data as object)) return data;
  return { ...data, [INVOCATION_FIELD]: id };
}

/**
 * A BullMQ queue whose `add` and `addBulk` stamp the current invocation id into the job's data: the
 * one place every Deckhand job is enqueued through (`openQueues` opens only these). Job schedulers
 * are not stamped: their jobs repeat long after the command that set them up.
 */
export class InvocationQueue extends Queue {
  override add(name: string, data: unknown, opts?: JobsOptions): Promise<Job> {
    return super.add(name, withInvocation(data), opts);
  }

  override addBulk(jobs: { name: string; data: unknown; opts?: BulkJobOptions }[]): Promise<Job[]> {
    return super.addBulk(jobs.map((job) => ({ ...job, data: withInvocation(job.data) })));
  }
}

/**
 * `processor`, run under the invocation its job's data names (or under none); each run is logged at
 * debug level, so a command's log shows when its queued work ran.
 */
export function inJobInvocation<P extends Processor>(processor: P): P {
  // Three parameters: BullMQ gives a processor that takes one the job's abort signal.
  const wrapped = (job: Job, token?: string, signal?: AbortSignal) => {
    const run = () => {
      getProcessLogger().debug(
        { queue: job.queueName, job: job.id, attempt: job.attemptsMade },
        'queue job run',
      );
      return processor(job, token, signal);
    };
    const id = invocationOf(job);
    return id ? runWithInvocation(id, run) : run();
  };
  return wrapped as P;
}
