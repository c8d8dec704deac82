/**
 * The one long-running poll of the queues (watches, source-host migrations, remote uploads): one
 * BullMQ job follows one resource for its whole life. Each run of the job is one look; unless the
 * follow is over, the job's data is updated and the job is moved back to `delayed` for the next look
 * (`moveToDelayed` + `DelayedError`, BullMQ's documented "process step jobs" pattern), so the state
 * lives in Redis, not in a process: a worker killed mid-way (even SIGKILL) leaves the job to the next
 * worker once its lock expires, and that worker continues from the last stored data.
 */
import { DelayedError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { NotFoundError, UpstreamError } from '../core/errors';

/** The bookkeeping every polled job carries in its data. */
export interface PollBookkeeping {
  /** Unix ms the follow began. */
  startedAt: number;
  /** Looks made so far (jobs queued before it was kept may lack it: counts as 0). */
  attempt?: number;
  /** Consecutive failed looks. */
  errors: number;
}

/** What a successful look decided: the follow is over with a result, or goes on with new data. */
export type PollOutcome<D> = { done: string } | { next: D };

/** Why a follow is given up. */
export type GiveUpReason = 'failing' | 'too-old';

/** One kind of followed resource. */
export interface PollSpec<D extends PollBookkeeping, L> {
  /** Names the follow in log lines (`watch`, `migration`, `remote upload`). */
  label: string;
  /** One look at the resource; throws when it could not be looked at. */
  look(data: D): Promise<L>;
  /**
   * Acts on a look (edits cards, announces) and says whether the follow is over; `next` already
   * carries the bookkeeping of this look. Errors it throws fail the job (they are not a failed look).
   */
  seen(data: D, look: L, next: D): Promise<PollOutcome<D>>;
  /**
   * A failed look that ends the follow at once (the resource is gone, a permanent refusal): acts on
   * it and returns the job's result. Undefined for a failure worth another look.
   */
  fatal(data: D, error: unknown): Promise<string | undefined>;
  /**
   * Gives up (after `maxErrors` failed looks in a row, or past `maxAgeMs`): says so on the card and
   * returns the job's result. `error` is the last failure when it is `failing`.
   */
  giveUp(data: D, reason: GiveUpReason, error?: unknown): Promise<string>;
  /** The wait before the next look; `attempt` counts the looks before this one (from 0). */
  delayMs(state: { attempt: number; errors: number }): number;
  /** Failed looks in a row after which the follow is given up. */
  maxErrors: number;
  /** A follow older than this is given up. */
  maxAgeMs: number;
  logger: Logger;
}

/**
 * The processor of a polled job: one look per run, then either the job's result, or the job moved
 * back to `delayed` with its updated data (the run ends by throwing BullMQ's `DelayedError`).
 */
export function createPollProcessor<D extends PollBookkeeping, L>(spec: PollSpec<D, L>) {
  return async (job: Job<D>, token?: string): Promise<string> => {
    const data = job.data;
    // BullMQ counts every start of the job, and each start is one look: the count needs no write.
    const attempt = Math.max(data.attempt ?? 0, (job.attemptsStarted ?? 1) - 1);
    let looked: { look: L } | undefined;
    try {
      looked = { look: await spec.look(data) };
    } catch (error) {
      const ended = await spec.fatal(data, error);
      if (ended !== undefined) return ended;
      if (data.errors + 1 >= spec.maxErrors) return spec.giveUp(data, 'failing', error);
      spec.logger.warn(
        { err: error, job: job.id, errors: data.errors + 1 },
        `${spec.label} poll failed; backing off`,
      );
    }
    let next: D = { ...data, attempt: attempt + 1, errors: looked ? 0 : data.errors + 1 };
    if (looked) {
      const outcome = await spec.seen(data, looked.look, next);
      if ('done' in outcome) return outcome.done;
      next = outcome.next;
    }
    if (Date.now() - data.startedAt > spec.maxAgeMs) return spec.giveUp(next, 'too-old');
    const at = Date.now() + spec.delayMs({ attempt, errors: next.errors });
    // A look that changed nothing but the count of looks leaves the data as it is: one write, not two.
    // Otherwise both are sent at once (one round trip).
    await Promise.all([
      sameBut(next, data, 'attempt') ? undefined : job.updateData(next),
      job.moveToDelayed(at, token),
    ]);
    throw new DelayedError();
  };
}

/** True when `a` and `b` differ at most in `field`. */
function sameBut<D extends object>(a: D, b: D, field: keyof D): boolean {
  return JSON.stringify({ ...a, [field]: undefined }) === JSON.stringify({ ...b, [field]: undefined });
}

/** True for a failed look that says the resource no longer exists (not found, or HTTP 404). */
export function isGone(error: unknown): boolean {
  return error instanceof NotFoundError || (error instanceof UpstreamError && error.status === 404);
}
