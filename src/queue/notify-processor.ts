import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { parseConversationId } from '../core/conversation';
import type { Outcome, WatchEvent } from '../core/watch';
import type { SubscriptionStore } from '../store/subscriptions';
import { ToolEventLog } from '../store/tool-events';
import { type ClaimedFailureDeps, claimedFailureStep } from './failure-recovery';
import { announces } from './notify-filter';
import { type PersonalDeps, queuePersonal } from './personal-delivery';
import { deliverJob, deliverQueueOf, eventKey, type Queues } from './queues';

export { deliverJob } from './queues';

/**
 * The outcome of the tool's previous event of the same kind (and, for jobs, the same job), recorded
 * idempotently: a retried fan-out of the same event reads the same "previous" it saw the first time.
 */
async function previousOutcome(
  redis: Redis,
  prefix: string,
  event: WatchEvent,
): Promise<Outcome | undefined> {
  if (!event.outcome || (event.kind !== 'job' && !event.terminal)) return undefined;
  const scope = event.kind === 'job' ? `${event.tool}:job:${event.id}` : `${event.tool}:${event.kind}`;
  const key = `${prefix}outcome:${scope}`;
  const me = eventKey(event);
  const [lastKey, last, before] = await redis.hmget(key, 'event', 'outcome', 'previous');
  if (lastKey === me) return (before || undefined) as Outcome | undefined;
  await redis.hset(key, { event: me, outcome: event.outcome, previous: last ?? '' });
  return (last || undefined) as Outcome | undefined;
}

/** What the fan-out needs. */
export interface NotifyDeps {
  queues: Queues;
  subscriptions: SubscriptionStore;
  redis: Redis;
  prefix: string;
  logger: Logger;
  /** Claimed failures: repeats silenced, recoveries confirmed (see `failure-recovery.ts`); none: all announced. */
  claimed?: ClaimedFailureDeps | undefined;
  /** Direct messages to the starters of work (`/notify`); none: no direct messages. */
  personal?: PersonalDeps | undefined;
}

/**
 * Records one event for the tool digests and fans it out to every subscribed conversation that
 * wants it: one deliver job each, and one for the direct message to whoever started the work when
 * they want it (`personal-delivery.ts`). An event
 * of a claimed failure is held back (`failure-recovery.ts`), and that module's own jobs (redrawing a
 * failure's cards, confirming a recovery) run here too.
 */
export function createNotifyProcessor(deps: NotifyDeps) {
  const history = new ToolEventLog(deps.redis, deps.prefix);
  return async (job: Job<WatchEvent>): Promise<number> => {
    let event = job.data;
    // The starter hears about their own work whether or not a claim holds the announcement back.
    if (deps.personal && event.starter) await queuePersonal(deps.personal, deps.queues, event, deps.logger);
    if (deps.claimed) {
      const step = await claimedFailureStep(deps.claimed, job);
      if (step.kind === 'done') return 0;
      event = step.event;
    }
    // Kept for the tool digests, whether or not any conversation hears about it live.
    await history.record(event);
    const previous = await previousOutcome(deps.redis, deps.prefix, event);
    const subscriptions = await deps.subscriptions.forTool(event.tool);
    const targets = subscriptions.filter((s) => announces(s, event, previous));
    const byQueue = new Map<string, typeof targets>();
    for (const target of targets) {
      const name = deliverQueueOf(parseConversationId(target.conversationId).platform);
      byQueue.set(name, [...(byQueue.get(name) ?? []), target]);
    }
    for (const [name, group] of byQueue) {
      await deps.queues[name as keyof Queues].addBulk(group.map((s) => deliverJob(event, s.conversationId)));
    }
    deps.logger.debug({ event: eventKey(event), deliveries: targets.length }, 'event fanned out');
    return targets.length;
  };
}
