import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ChatUser } from '../core/command';
import type { DraftCard } from '../core/reply';
import type { WatchEvent, WatchKindName } from '../core/watch';
import { bullPrefix, DELIVER_QUEUES, QUEUE_NAMES, type QueueName } from '../store/queue-keys';
import { InvocationQueue } from './job-context';

export {
  bullPrefix,
  DELIVER_QUEUES,
  QUEUE_NAMES,
  type QueueName,
  untaggedBullPrefix,
} from '../store/queue-keys';

/** The queue that delivers announcements to conversations on `platform`. */
export function deliverQueueOf(platform: string): (typeof DELIVER_QUEUES)[number] {
  const name = `deliver-${platform}`;
  if (!(DELIVER_QUEUES as readonly string[]).includes(name))
    throw new Error(`no deliver queue for ${platform}`);
  return name as (typeof DELIVER_QUEUES)[number];
}

/** Data of a watch job: one per followed resource. */
export interface WatchJobData {
  kind: WatchKindName;
  tool: string;
  id: string;
  /** Unix ms the watch began. */
  startedAt: number;
  /** Polls done so far (drives the back-off). */
  attempt: number;
  /** Consecutive failed polls. */
  errors: number;
  /** State seen at the last poll. */
  lastState?: string;
  /** The card shown at the last poll, as JSON (cards are edited only when it changes). */
  lastCard?: string;
  /** The language its cards are written in (the conversation's it was started in). */
  language?: string;
}

/** Data of a deliver job: one announcement to one conversation. */
export interface DeliverJobData {
  event: WatchEvent;
  /** The subscribed conversation; for a direct message, a stand-in naming the recipient. */
  conversationId: string;
  /** A direct message to this person (their direct conversation is opened when it is posted). */
  direct?: ChatUser;
  /** The direct message's card, for work whose kind has no announcement of its own (an upload). */
  card?: DraftCard;
}

/** The queues, sharing one Redis connection. */
export type Queues = Record<QueueName, Queue>;

/**
 * Opens every queue under `keyPrefix` (BullMQ keys are `<bullPrefix>:<queue>:…`, see {@link bullPrefix}). Jobs added through them
 * carry the id of the invocation that added them (see `job-context.ts`).
 */
export function openQueues(connection: Redis, keyPrefix: string): Queues {
  const entries = QUEUE_NAMES.map(
    (name) => [name, new InvocationQueue(name, { connection, prefix: bullPrefix(keyPrefix, name) })] as const,
  );
  return Object.fromEntries(entries) as Queues;
}

/** Closes every queue. */
export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}

/** The job id of a resource's watch: exactly one job per resource. */
export function watchJobId(kind: WatchKindName, tool: string, id: string): string {
  return `watch|${kind}|${tool}|${id}`;
}

/**
 * Stable key of a state change: a resource enters each state once (jobs number their repeats with
 * `serial`), so the same change seen twice — a retried poll, a second watch — has the same key.
 */
export function eventKey(event: WatchEvent): string {
  const serial = event.serial === undefined ? '' : `#${event.serial}`;
  return `${event.kind}|${event.tool}|${event.id}|${event.to}${serial}`;
}

/** Job id of one announcement to one conversation: a repeat is ignored while the job is kept. */
export function deliverJobId(event: WatchEvent, conversationId: string): string {
  return `deliver-${createHash('sha256')
    .update(`${eventKey(event)}\n${conversationId}`)
    .digest('hex')
    .slice(0, 40)}`;
}

/** Job id of the watch of a source-host migration: exactly one job per migration. */
export function migrationJobId(owner: string, id: number): string {
  return `migration|${owner}|${id}`;
}

/** Job id of the fan-out of one event. */
export function notifyJobId(event: WatchEvent): string {
  return `notify-${createHash('sha256').update(eventKey(event)).digest('hex').slice(0, 40)}`;
}

/** The deliver job of one announcement to one conversation (its id is the delivery key). */
export function deliverJob(event: WatchEvent, conversationId: string) {
  return {
    name: 'deliver',
    data: { event, conversationId } satisfies DeliverJobData,
    opts: {
      jobId: deliverJobId(event, conversationId),
      attempts: 10,
      backoff: { type: 'exponential' as const, delay: 1000 },
      removeOnComplete: { age: 86_400 },
      removeOnFail: { age: 7 * 86_400 },
    },
  };
}
