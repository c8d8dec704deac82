/**
 * What a job's state means, decided once for the commands, the watches and the queue's discovery
 * and tails: whether its run is over, and whether its state is a success or a failure.
 */
import type { Outcome } from '../../core/watch';
import type { Job, JobStatusShort } from './jobs-schemas';

/** Job states as outcomes: a job that runs or succeeded is fine, a failed one is a failure. */
const OUTCOMES: Partial<Record<JobStatusShort, Outcome>> = {
  running: 'success',
  succeeded: 'success',
  failed: 'failure',
};

/** The outcome of a job's state, when its state has one (pending and unknown have none). */
export function jobOutcome(job: Pick<Job, 'status'>): Outcome | undefined {
  const short = job.status?.short;
  return short ? OUTCOMES[short] : undefined;
}

/**
 * How the job's run ended, `succeeded` or `failed` (by the short state, or by the older
 * `status_short` of `Completed` or `Failed` where the platform gives only that); undefined while
 * it has not ended.
 */
export function jobRunEnd(job: Pick<Job, 'status' | 'status_short'>): 'succeeded' | 'failed' | undefined {
  const short = job.status?.short;
  if (short === 'failed' || job.status_short === 'Failed') return 'failed';
  if (short === 'succeeded' || job.status_short === 'Completed') return 'succeeded';
  return undefined;
}
