/**
 * The one long-running poll of the queues (watches, source-host migrations, remote uploads): one
 * BullMQ job follows one resource for its whole life. The job stays active while it follows: its
 * worker looks, waits in memory and looks again, and BullMQ renews the lock of every such job in one
 * request per renewal, so a look that changed nothing costs Redis nothing. What a look changed (the
 * card shown, the state announced, failed looks in a row) is written to the job's data at once, so
 * the state lives in Redis, not in a process:
 * - a worker killed mid-way (even SIGKILL) leaves the job to the next worker once its lock lapses
 *   (BullMQ finds it stalled), and that worker continues from the last stored data;
 * - a worker that closes hands each of its follows back (`moveToDelayed` to the next look's time, then
 *   BullMQ's `DelayedError`, its documented "process step jobs" pattern), so another takes it on time;
 * - a worker that lost a job's lock (cut off from Redis longer than the lock lasts) stops following
 *   it: by then another worker has it.
 * A follow may instead be handed back after every look (`releaseBetweenLooks`), for queues whose
 * slots are needed by other work.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DelayedError, type Job, type Worker } from 'bullmq';
import type { Logger } from 'pino';
import { NotFoundError, UpstreamError } from '../core/errors';
import { followLooks } from '../metrics';
import { Compartment } from '../services/bulkhead';

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
  /** Hands the job back to the queue after every look instead of holding it between looks. */
  releaseBetweenLooks?: boolean;
  logger: Logger;
}

/** Why a worker stops a follow it holds (the abort reason BullMQ's job signal carries). */
const HAND_BACK = 'deckhand:closing';
const LOCK_LOST = 'deckhand:lock-lost';

/**
 * Makes `worker`'s follows let go when they should: on close each is handed back to the queue, and a
 * follow whose lock could not be renewed stops (another worker has it by then). Call once per worker
 * of a queue whose processor is a {@link createPollProcessor}.
 */
export function letFollowsGo(worker: Worker): void {
  worker.on('closing', () => worker.cancelAllJobs(HAND_BACK));
  worker.on('lockRenewalFailed', (jobIds: string[]) => {
    for (const id of jobIds) worker.cancelJob(id, LOCK_LOST);
  });
}

/** One look and what it decided: the follow's result, or the data for the next look. */
async function lookOnce<D extends PollBookkeeping, L>(
  spec: PollSpec<D, L>,
  job: Job<D>,
  data: D,
  attempt: number,
): Promise<{ done: string } | { next: D }> {
  let looked: { look: L } | undefined;
  try {
    looked = { look: await spec.look(data) };
  } catch (error) {
    const ended = await spec.fatal(data, error);
    if (ended !== undefined) return { done: ended };
    if (data.errors + 1 >= spec.maxErrors) return { done: await spec.giveUp(data, 'failing', error) };
    spec.logger.warn(
      { err: error, job: job.id, errors: data.errors + 1 },
      `${spec.label} poll failed; backing off`,
    );
  } finally {
    followLooks.inc({ follow: spec.label });
  }
  let next: D = { ...data, attempt: attempt + 1, errors: looked ? 0 : data.errors + 1 };
  if (looked) {
    const outcome = await spec.seen(data, looked.look, next);
    if ('done' in outcome) return outcome;
    next = outcome.next;
  }
  if (Date.now() - data.startedAt > spec.maxAgeMs) return { done: await spec.giveUp(next, 'too-old') };
  return { next };
}

/**
 * Looks in flight at once in one process, per kind of follow (a look and what it does after: the
 * card edits, the announcement). The follows a worker holds are many more; the rest wait their turn,
 * so thousands of follows due at once do not flood the service they look at.
 */
export const LOOKS_IN_FLIGHT = 50;

const lookSlots = new Map<string, Compartment>();

/** The process's places for looks of the follows named `label`. */
function lookSlotsOf(label: string): Compartment {
  let slots = lookSlots.get(label);
  if (!slots) {
    slots = new Compartment(label, LOOKS_IN_FLIGHT);
    lookSlots.set(label, slots);
  }
  return slots;
}

/** Waits `ms`, or less when `signal` aborts; true when it aborted. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return sleep(Math.max(0, ms), undefined, { signal }).then(
    () => false,
    () => true,
  );
}

/**
 * The processor of a polled job: looks until the follow is over (the job's result), writing what a
 * look changed to the job's data; handed back to `delayed` when its worker closes (or after every
 * look with `releaseBetweenLooks`), ending the run with BullMQ's `DelayedError`.
 */
export function createPollProcessor<D extends PollBookkeeping, L>(spec: PollSpec<D, L>) {
  return async (job: Job<D>, token?: string, signal?: AbortSignal): Promise<string> => {
    let data = job.data;
    // Jobs stored before looks were counted in the data counted them by BullMQ's starts of the job.
    let attempt = Math.max(data.attempt ?? 0, (job.attemptsStarted ?? 1) - 1);
    /** Ends the run: the data (when `write`) and the move to `delayed` are sent at once. */
    const handBack = async (at: number, write: boolean): Promise<never> => {
      await Promise.all([write ? job.updateData(data) : undefined, job.moveToDelayed(at, token)]);
      throw new DelayedError();
    };
    const stopped = () => {
      if (signal?.reason === LOCK_LOST) throw new Error(`${spec.label} lost its job lock to another worker`);
    };
    for (;;) {
      // A worker that closes while this follow waits for a place hands it back at once.
      const release = await lookSlotsOf(spec.label)
        .take(signal, false)
        .catch(() => undefined);
      if (!release) {
        stopped();
        return handBack(Date.now(), !spec.releaseBetweenLooks);
      }
      const step = await lookOnce(spec, job, data, attempt).finally(release);
      if ('done' in step) return step.done;
      const next = step.next;
      const at = Date.now() + spec.delayMs({ attempt, errors: next.errors });
      // A look that changed nothing but the count of looks writes nothing.
      const changed = !sameBut(next, data, 'attempt');
      data = next;
      attempt += 1;
      if (spec.releaseBetweenLooks) return handBack(at, changed);
      if (changed) await job.updateData(data);
      if (!(await pause(at - Date.now(), signal))) continue;
      stopped();
      // Handed back on close, with the count of looks.
      return handBack(at, true);
    }
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
