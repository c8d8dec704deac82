/**
 * The fan-out's part of claimed failures (src/core/failure-claim.ts): a repeat of a claimed failure
 * is not announced; a success is a possible recovery, confirmed before it is announced. A
 * deployment's success is a recovery at once. A job's must hold: after a quiet time the job is
 * looked at again, and it recovered only if it is still well and was not restarted meanwhile (a
 * crash-looping job runs between its crashes); otherwise it is looked at again later, until a new
 * failure arrives (silenced), or {@link MAX_CHECKS} looks.
 */
import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { CardPublishing } from '../core/card-publisher';
import { claimedCard, recoveredCard } from '../core/failure-card';
import { editFailureCards, type FailureClaimStore, type FailureScope, gated } from '../core/failure-claim';
import type { WatchEvent } from '../core/watch';
import type { Queues } from './queues';

/** Name of the notify job that edits a failure's cards after its claim changed (data: the scope). */
export const REDRAW_FAILURE_CARDS = 'failure-cards';

/** Name of the notify job that confirms a claimed failure's recovery (data: {@link RecoveryCheck}). */
export const CHECK_RECOVERY = 'recovery';

/** Looks at a possible recovery before it is given up on. */
const MAX_CHECKS = 20;

/** How a job looks now: well (running or succeeded) or not, and its restarts so far. */
export interface JobHealth {
  well: boolean;
  restarts?: number | undefined;
}

/** One look at a possible recovery. */
export interface RecoveryCheck {
  event: WatchEvent;
  /** The job's restarts at the previous look. */
  restarts?: number | undefined;
  checks: number;
}

/** What the claimed-failure part of the fan-out needs. */
export interface ClaimedFailureDeps {
  queues: Queues;
  failures: FailureClaimStore;
  /** Edits the failure's cards (claimed, recovered). */
  cards?: Pick<CardPublishing, 'update'> | undefined;
  logger: Logger;
  /** How long a claimed job must stay well before its recovery is announced. */
  quietMs: number;
  /** Looks at a job now (the platform's own answer). */
  health: (event: WatchEvent) => Promise<JobHealth>;
}

/** What the fan-out does next with a job of the notify queue. */
export type ClaimStep = { kind: 'announce'; event: WatchEvent } | { kind: 'done' };

function checkJobId(event: WatchEvent, checks: number): string {
  const key = `${event.kind}|${event.tool}|${event.id}|${event.to}|${event.serial ?? ''}|${event.at}`;
  return `recovery-${createHash('sha256').update(key).digest('hex').slice(0, 40)}-${checks}`;
}

async function scheduleCheck(deps: ClaimedFailureDeps, check: RecoveryCheck): Promise<void> {
  await deps.queues.notify.add(CHECK_RECOVERY, check, {
    jobId: checkJobId(check.event, check.checks),
    delay: check.event.kind === 'job' ? deps.quietMs : 0,
    removeOnComplete: { age: 86_400 },
    removeOnFail: { age: 86_400 },
  });
}

async function healthOf(deps: ClaimedFailureDeps, event: WatchEvent): Promise<JobHealth | undefined> {
  if (event.kind !== 'job') return { well: true };
  return deps.health(event).catch((error: unknown) => {
    deps.logger.warn({ err: error, tool: event.tool, job: event.id }, 'could not look at a recovering job');
    return undefined;
  });
}

async function check(deps: ClaimedFailureDeps, data: RecoveryCheck): Promise<ClaimStep> {
  const { event } = data;
  const now = await healthOf(deps, event);
  if (now?.well !== true || now.restarts !== data.restarts) {
    // Not (yet) a recovery: look again after the quiet time, unless the record moved on.
    if (data.checks < MAX_CHECKS && (await deps.failures.awaits(event))) {
      await scheduleCheck(deps, { event, restarts: now?.restarts, checks: data.checks + 1 });
    }
    return { kind: 'done' };
  }
  const state = await deps.failures.recover(event);
  if (!state) return { kind: 'done' };
  if (deps.cards) {
    await editFailureCards(
      { cards: deps.cards, logger: deps.logger },
      state.cards,
      recoveredCard(state, event),
    );
  }
  return { kind: 'announce', event };
}

/**
 * The claimed-failure step of one notify job: a redraw or a recovery check is handled here; an event
 * of a claimed failure is kept back; any other event is announced as usual.
 */
export async function claimedFailureStep(deps: ClaimedFailureDeps, job: Job): Promise<ClaimStep> {
  if (job.name === REDRAW_FAILURE_CARDS) {
    const state = await deps.failures.state(job.data as FailureScope);
    if (state && deps.cards) {
      await editFailureCards({ cards: deps.cards, logger: deps.logger }, state.cards, claimedCard(state));
    }
    return { kind: 'done' };
  }
  if (job.name === CHECK_RECOVERY) return check(deps, job.data as RecoveryCheck);
  const event = job.data as WatchEvent;
  if (!gated(event)) return { kind: 'announce', event };
  const verdict = await deps.failures.gate(event);
  if (verdict === 'announce') return { kind: 'announce', event };
  if (verdict === 'recovering') {
    // The restarts now, to compare after the quiet time (a deployment's success is checked at once).
    const now = await healthOf(deps, event);
    await scheduleCheck(deps, { event, restarts: now?.restarts, checks: 1 });
  }
  deps.logger.debug({ tool: event.tool, kind: event.kind, verdict }, 'claimed failure: not announced now');
  return { kind: 'done' };
}
