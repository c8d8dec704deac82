import { type Job, UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { pauseConversation, pausedUntil, waitOnQueue } from '../coordination/conversation-pause';
import { DeliveryRecords } from '../coordination/delivery-records';
import type { CardPublishing } from '../core/card-publisher';
import { userKeyOf } from '../core/change-record';
import type { ChatUser, MessageHandle } from '../core/command';
import { parseConversationId } from '../core/conversation';
import { ConversationGoneError, RateLimitedError } from '../core/errors';
import { type FailureClaimStore, gated } from '../core/failure-claim';
import type { DraftCard } from '../core/reply';
import { absoluteText } from '../core/times';
import type { WatchEvent, WatchKind, WatchKindName } from '../core/watch';
import { type Translator, translator } from '../i18n/translate';
import { metricsRegistry } from '../metrics';
import { RedisLanguageStore } from '../store/languages';
import type { SubscriptionStore } from '../store/subscriptions';
import { postThreaded } from './notify-thread';
import { type DeliverJobData, deliverJobId } from './queues';

/**
 * Announcements delivered, by platform and outcome (`sent`, `retry`, `gone`, `rate-limited`: put
 * back until the conversation takes posts again, `already-posted`: a retry found the post recorded
 * and posted nothing).
 */
export const deliveryCounter = new Counter({
  name: 'deckhand_notification_deliveries_total',
  help: 'Announcements to subscribed conversations, by platform and outcome.',
  labelNames: ['platform', 'outcome'] as const,
  registers: [metricsRegistry],
});

/** What the deliver processor needs. */
export interface DeliverDeps<S> {
  kinds: readonly WatchKind<S>[];
  /**
   * Posts announcements; with `postInThread` and `update` (a thread's parent edited), subscriptions
   * with `thread` are posted threaded (see `notify-thread.ts`).
   */
  cards: Pick<CardPublishing, 'post'> | CardPublishing;
  subscriptions: SubscriptionStore;
  /** Where each delivery's posted-record lives. */
  redis: Redis;
  prefix: string;
  logger: Logger;
  /** Where a failure's posted cards are recorded, so a claim or a recovery can edit them all. */
  failures?: FailureClaimStore | undefined;
  /** Opens a person's direct conversation with the bot (direct messages, `/notify`). */
  openDirect?: ((user: ChatUser) => Promise<string>) | undefined;
  /** A web link to a posted card, for the direct message (undefined: none). */
  linkTo?: ((handle: MessageHandle) => Promise<string | undefined>) | undefined;
}

/**
 * Posts one announcement to one conversation, exactly once where the platform makes it possible:
 *
 * - a posted-record per (event, conversation) is written right after the platform accepted the post,
 *   and read before any attempt, so a retry (a crash, a failed job) never posts a recorded message;
 * - every attempt carries the delivery key on the card (`card.delivery`), which each platform's
 *   messenger uses as far as the platform allows: as an idempotency key the platform honours (it
 *   returns the earlier message instead of creating a second one), or as message metadata that a
 *   retry after an interrupted attempt looks up in the channel's recent history before posting again;
 * - a platform with neither (no idempotency key, no history a bot can read) gets the announcement
 *   again after an interrupted attempt (the process died between the request and recording its
 *   answer), so a message is never lost but may, in that window, appear twice (at least once).
 *
 * Transient failures are retried with back-off by BullMQ. A platform that refuses a post for a while
 * (429, see `RateLimitedError`; a messenger may refuse at once instead of pausing) delays
 * this conversation's deliveries alone, on the queue, without counting an attempt; a conversation the bot can no longer post in is marked broken and dropped, not
 * retried forever.
 */
export function createDeliverProcessor<S>(deps: DeliverDeps<S>) {
  const kinds = new Map<WatchKindName, WatchKind<S>>(deps.kinds.map((k) => [k.name, k]));
  const records = new DeliveryRecords(deps.redis, deps.prefix);

  const languages = new RedisLanguageStore(deps.redis, deps.prefix);

  /** A direct message to `user`: their direct conversation opened, then posted exactly once like an announcement. */
  const deliverDirect = async (job: Job<DeliverJobData>, user: ChatUser, token?: string): Promise<void> => {
    const { event, conversationId: placeholder } = job.data;
    // The reader's language: what their platform said when they started the work, else their /language.
    const language = user.locale ?? (await languages.ofUser(userKeyOf(user)).catch(() => undefined));
    const say = translator(language);
    const announcement = job.data.card ?? kinds.get(event.kind as WatchEvent['kind'])?.announce(event, say);
    if (!announcement) throw new UnrecoverableError(`unknown event kind ${event.kind}`);
    if (!deps.openDirect) throw new UnrecoverableError('direct messages are not available in this process');
    const key = deliverJobId(event, placeholder);
    const state = await records.begin(key);
    if (state.kind === 'posted') {
      deliveryCounter.inc({ platform: user.platform, outcome: 'already-posted' });
      return;
    }
    const started = event.starter?.card;
    const link = started && deps.linkTo ? await deps.linkTo(started).catch(() => undefined) : undefined;
    const card: DraftCard = {
      ...directCard(announcement, event, link, say),
      locale: say.language,
      delivery: { key, announcement: true, ...(state.kind === 'interrupted' ? { since: state.since } : {}) },
    };
    let target = placeholder;
    try {
      target = await deps.openDirect(user);
      const handle = await deps.cards.post(target, card);
      await records.posted(key, handle);
      deliveryCounter.inc({ platform: user.platform, outcome: 'sent' });
    } catch (error) {
      if (error instanceof RateLimitedError) {
        deliveryCounter.inc({ platform: user.platform, outcome: 'rate-limited' });
        await waitOnQueue(
          job,
          token,
          await pauseConversation(deps.redis, deps.prefix, target, error.retryAfterMs),
        );
      }
      if (error instanceof ConversationGoneError) {
        // The person cannot be written to (they never opened a chat with the bot, or blocked it).
        deliveryCounter.inc({ platform: user.platform, outcome: 'gone' });
        deps.logger.info(
          { user: `${user.platform}:${user.id}`, reason: error.message },
          'direct message not possible',
        );
        throw new UnrecoverableError(error.message);
      }
      deliveryCounter.inc({ platform: user.platform, outcome: 'retry' });
      throw error;
    }
  };

  return async (job: Job<DeliverJobData>, token?: string): Promise<void> => {
    const { event, direct } = job.data;
    if (direct) return deliverDirect(job, direct, token);
    const { conversationId } = job.data;
    const platform = parseConversationId(conversationId).platform;
    const kind = kinds.get(event.kind as WatchEvent['kind']);
    if (!kind) throw new UnrecoverableError(`unknown event kind ${event.kind}`);
    const paused = await pausedUntil(deps.redis, deps.prefix, conversationId);
    if (paused !== undefined) await waitOnQueue(job, token, paused);
    const key = deliverJobId(event, conversationId);
    const state = await records.begin(key);
    if (state.kind === 'posted') {
      deliveryCounter.inc({ platform, outcome: 'already-posted' });
      return;
    }
    if (state.kind === 'interrupted') {
      deps.logger.info(
        { conversation: conversationId, delivery: key, since: state.since },
        'an earlier attempt of this announcement was interrupted; the messenger checks before posting',
      );
    }
    const [subscription, language] = await Promise.all([
      deps.subscriptions.get(conversationId, event.tool),
      languages.ofConversation(conversationId).catch(() => undefined),
    ]);
    const say = translator(language);
    const card: DraftCard = {
      ...compactIf(subscription?.format === 'compact', kind.announce(event, say)),
      locale: say.language,
      delivery: { key, announcement: true, ...(state.kind === 'interrupted' ? { since: state.since } : {}) },
    };
    try {
      const cards = deps.cards;
      const threads = 'postInThread' in cards ? cards : undefined;
      const threaded = threads ? subscription?.thread === true : false;
      const handle =
        threads && threaded
          ? await postThreaded(
              { cards: threads, redis: deps.redis, prefix: deps.prefix },
              conversationId,
              event,
              card,
            )
          : await cards.post(conversationId, card);
      await records.posted(key, handle);
      deliveryCounter.inc({ platform, outcome: 'sent' });
      if (deps.failures && event.outcome === 'failure' && gated(event)) {
        // Posted already: a copy that cannot be recorded only misses the claim's later edits.
        await deps.failures
          .posted(event, handle, card)
          .catch((error: unknown) =>
            deps.logger.warn({ err: error, conversation: conversationId }, 'could not record a failure card'),
          );
      }
    } catch (error) {
      if (error instanceof RateLimitedError) {
        // This conversation alone waits (and every delivery to it, see src/coordination/conversation-pause.ts).
        deliveryCounter.inc({ platform, outcome: 'rate-limited' });
        const until = await pauseConversation(deps.redis, deps.prefix, conversationId, error.retryAfterMs);
        await waitOnQueue(job, token, until);
      }
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

/** The direct message to the person who started the work: the announcement, when it was started, and a link to its card. */
export function directCard(
  announcement: DraftCard,
  event: WatchEvent,
  cardLink?: string,
  say: Translator = translator('en'),
): DraftCard {
  const ended = event.starter
    ? say.t(
        'queue-direct-ended-started',
        absoluteText({ at: event.starter.startedAt }, undefined, say.language),
      )
    : say.t('queue-direct-ended');
  return {
    ...announcement,
    text: [announcement.text, ended].filter(Boolean).join('\n'),
    ...(cardLink
      ? { links: [...(announcement.links ?? []), { label: say.t('queue-direct-open-card'), url: cardLink }] }
      : {}),
  };
}

/** A compact announcement (`--format compact`): its title line and button, without the detail. */
function compactIf(compact: boolean, card: DraftCard): DraftCard {
  if (!compact) return card;
  const { text: _text, fields: _fields, footer: _footer, ...rest } = card;
  return rest;
}
