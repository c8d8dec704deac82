/**
 * Moving what Deckhand keeps for a conversation to a new id, when the platform gives the same
 * conversation another one (a group upgraded to a supergroup: every later message and every
 * post goes to the new chat id, the old one answers 400). Moved: the tool binding, the time zone,
 * every tool subscription (kept as it was, a broken mark cleared: the chat is reachable again), the
 * calendar digest and the subscribed tools' digests. Each piece is written under the new id before the old one is removed, so a
 * move interrupted halfway and run again (the platform's next message about it) finishes the job and
 * loses nothing.
 */
import type { Platform } from '../core/conversation';
import type { RedisBindingStore } from './bindings';
import type { Subscription, SubscriptionStore } from './subscriptions';
import type { RedisTimeZoneStore } from './time-zones';

/** A conversation's digests (the calendar's, or a tool's) as their scheduler stores them (the queue's `DigestScheduler`). */
export interface MovableDigests<D extends { conversationId: string; platform: Platform }> {
  get(
    conversationId: string,
    tool?: string,
  ): Promise<(D & { next?: number | undefined; pattern?: string }) | undefined>;
  set(data: D): Promise<unknown>;
  remove(conversationId: string, tool?: string): Promise<boolean>;
}

/** What was moved, in words for a log line or a card. */
export type MovedState = ('binding' | 'time zone' | 'subscriptions' | 'digest')[];

/** Moves a conversation's stored state to a new conversation id. */
export class ConversationMove<D extends { conversationId: string; platform: Platform }> {
  constructor(
    private readonly deps: {
      bindings: RedisBindingStore;
      timeZones: RedisTimeZoneStore;
      subscriptions: SubscriptionStore;
      digests: MovableDigests<D>;
    },
  ) {}

  /** Moves everything kept under `from` to `to` (nothing there is overwritten by nothing). */
  async move(from: string, to: string): Promise<MovedState> {
    if (from === to) return [];
    const moved: MovedState = [];
    const { bindings, timeZones, subscriptions, digests } = this.deps;
    const tool = await bindings.get(from);
    if (tool !== undefined) {
      await bindings.set(to, tool);
      await bindings.remove(from);
      moved.push('binding');
    }
    const zone = await timeZones.get(from);
    if (zone !== undefined) {
      await timeZones.set(to, zone);
      await timeZones.set(from, undefined);
      moved.push('time zone');
    }
    const subs = await subscriptions.forConversation(from);
    for (const subscription of subs) {
      const { broken: _broken, ...kept } = subscription;
      const next: Subscription = { ...kept, conversationId: to };
      await subscriptions.put(next);
      await subscriptions.remove(from, subscription.tool);
    }
    if (subs.length > 0) moved.push('subscriptions');
    // The calendar digest, and the digest of each subscribed tool (also those whose subscription a
    // move interrupted halfway has carried over already).
    const tools = new Set((await subscriptions.forConversation(to)).map((s) => s.tool));
    for (const tool of [undefined, ...tools]) {
      const digest = await digests.get(from, tool);
      if (!digest) continue;
      const { next: _next, pattern: _pattern, ...data } = digest;
      await digests.set({ ...(data as unknown as D), conversationId: to });
      await digests.remove(from, tool);
      if (!moved.includes('digest')) moved.push('digest');
    }
    return moved;
  }
}
