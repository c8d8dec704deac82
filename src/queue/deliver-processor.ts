import { type Job, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { parseConversationId } from '../core/conversation';
import { ConversationGoneError } from '../core/errors';
import type { DraftCard } from '../core/reply';
import type { WatchEvent, WatchKind, WatchKindName } from '../core/watch';
import { metricsRegistry } from '../metrics';
import type { SubscriptionStore } from '../store/subscriptions';
import type { DeliverJobData } from './queues';

/** Announcements delivered, by platform and outcome (`sent`, `retry`, `gone`). */
export const deliveryCounter = new Counter({
  name: 'deckhand_notification_deliveries_total',
  help: 'Announcements to subscribed conversations, by platform and outcome.',
  labelNames: ['platform', 'outcome'] as const,
  registers: [metricsRegistry],
});

/** What the deliver processor needs. */
export interface DeliverDeps<S> {
  kinds: readonly WatchKind<S>[];
  /** Posts a card to a conversation through its platform's messenger (the dispatcher's `post`). */
  post(conversationId: string, card: DraftCard): Promise<unknown>;
  subscriptions: SubscriptionStore;
  logger: Logger;
}

/**
 * Posts one announcement to one conversation. Transient failures are retried with back-off by BullMQ
 * (platform rate limits are already waited out by each SDK); a conversation the bot can no longer post
 * in is marked broken and dropped, not retried forever.
 */
export function createDeliverProcessor<S>(deps: DeliverDeps<S>) {
  const kinds = new Map<WatchKindName, WatchKind<S>>(deps.kinds.map((k) => [k.name, k]));
  return async (job: Job<DeliverJobData>): Promise<void> => {
    const { event, conversationId } = job.data;
    const platform = parseConversationId(conversationId).platform;
    const kind = kinds.get(event.kind as WatchEvent['kind']);
    if (!kind) throw new UnrecoverableError(`unknown event kind ${event.kind}`);
    try {
      await deps.post(conversationId, kind.announce(event));
      deliveryCounter.inc({ platform, outcome: 'sent' });
    } catch (error) {
      if (error instanceof ConversationGoneError) {
        deliveryCounter.inc({ platform, outcome: 'gone' });
        deps.logger.warn(
          { conversation: conversationId, reason: error.message },
          'subscription marked broken',
        );
        await deps.subscriptions.markBroken(conversationId, error.message);
        throw new UnrecoverableError(error.message);
      }
      deliveryCounter.inc({ platform, outcome: 'retry' });
      throw error;
    }
  };
}
