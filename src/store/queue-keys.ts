/**
 * The names of Deckhand's queues and the Redis key prefixes BullMQ keeps them under: what the store
 * needs to check and migrate the key layout, without the queues themselves (`src/queue/queues.ts`).
 */

import { PLATFORM_NAMES, type PlatformName } from '../../adapters/platform-names';

/** The delivery queue of each of `names`, in their order. */
type DeliverQueues<T extends readonly PlatformName[]> = { [K in keyof T]: `deliver-${T[K]}` };

/**
 * Announcements are delivered through one queue per platform (`deliver-<platform>`), so each
 * proceeds at its own platform's pace: with one shared queue, jobs waiting out one platform's limits
 * held the slots the others could use (measured by the fan-out benchmark).
 */
export const DELIVER_QUEUES = PLATFORM_NAMES.map(
  (name) => `deliver-${name}` as const,
) as unknown as DeliverQueues<typeof PLATFORM_NAMES>;

/** The queues of Deckhand's long-running work. */
export const QUEUE_NAMES = [
  'watch',
  'notify',
  ...DELIVER_QUEUES,
  'discover',
  'tail',
  'digest',
  'migration',
  'upload',
  'commands',
] as const;

/** One of {@link QUEUE_NAMES}. */
export type QueueName = (typeof QUEUE_NAMES)[number];

/**
 * The BullMQ key prefix of one queue (`dh:` → `dh:bull:{commands}`): BullMQ's scripts use several
 * keys of a queue at once, which on a Redis Cluster must share a slot, so each queue's keys carry a
 * hash tag of their own (the queues spread over the masters; docs.bullmq.io/patterns/redis-cluster).
 * A key prefix with a tag of its own (`{dh}:`) wins: Redis hashes the first `{…}` of a key.
 */
export function bullPrefix(keyPrefix: string, queue: QueueName): string {
  return `${keyPrefix}bull:{${queue}}`;
}

/** The BullMQ key prefix every queue shared before queues were tagged (`dh:bull`). */
export function untaggedBullPrefix(keyPrefix: string): string {
  return `${keyPrefix}bull`;
}
