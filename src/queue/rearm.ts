/**
 * The schedulers a start sets up again from what is stored, in every mode: each subscribed tool's
 * discovery (from the subscriptions) and each conversation's calendar digest (read before the queues
 * are emptied, when the embedded sandbox empties them). A start that keeps subscriptions, bindings
 * and digests keeps them working too: `/subscriptions` and `deckhand status` agree after a restart.
 */
import type { SubscriptionStore } from '../store/subscriptions';
import type { DigestJobData, DigestScheduler } from './digest-scheduler';

/** What {@link rearmSchedulers} needs. */
export interface RearmDeps {
  subscriptions: Pick<SubscriptionStore, 'tools'>;
  digests: Pick<DigestScheduler, 'set'>;
  scheduleDiscovery(tool: string): Promise<void>;
}

/** The stored digests as the data to set them again with (see {@link rearmSchedulers}). */
export async function savedDigests(digests: Pick<DigestScheduler, 'list'>): Promise<DigestJobData[]> {
  return (await digests.list()).map(({ next: _next, pattern: _pattern, ...data }) => data);
}

/**
 * Sets up the discovery of every subscribed tool and every digest in `digests` again (both are
 * idempotent: an existing scheduler is updated in place). Resolves with how many of each.
 */
export async function rearmSchedulers(
  deps: RearmDeps,
  digests: readonly DigestJobData[],
): Promise<{ tools: number; digests: number }> {
  const tools = await deps.subscriptions.tools();
  for (const tool of tools) await deps.scheduleDiscovery(tool);
  for (const digest of digests) await deps.digests.set(digest);
  return { tools: tools.length, digests: digests.length };
}
