import type { Outcome, WatchEvent, WatchKindName } from '../core/watch';
import type { Subscription, SubscriptionKind } from '../store/subscriptions';

const KIND_OF: Readonly<Record<WatchKindName, SubscriptionKind | undefined>> = {
  build: 'builds',
  deployment: 'deploys',
  job: 'jobs',
  webservice: 'jobs',
};

/**
 * Whether a subscription announces an event.
 * - Builds and deployments are announced when they finish; jobs when their state changes to a
 *   different outcome (a job that starts failing, or recovers).
 * - `failuresOnly`: only failures.
 * - `changesOnly`: only a failure after a success or a success after a failure (`previous` is the
 *   outcome before this event, for the same tool and kind) — the noise cut users ask for.
 */
export function announces(
  subscription: Subscription,
  event: WatchEvent,
  previous: Outcome | undefined,
): boolean {
  if (subscription.broken) return false;
  const kind = KIND_OF[event.kind];
  if (!kind || !subscription.kinds.includes(kind)) return false;
  if (!event.outcome) return false;
  if (event.kind !== 'job' && !event.terminal) return false;
  if (event.outcome === 'cancelled' && (subscription.failuresOnly || subscription.changesOnly)) return false;
  if (subscription.failuresOnly && event.outcome !== 'failure') return false;
  if (subscription.changesOnly) {
    return previous !== undefined && previous !== 'cancelled' && previous !== event.outcome;
  }
  if (event.kind === 'job') return previous !== event.outcome;
  return true;
}
