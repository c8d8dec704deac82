/**
 * How many messages and edits a conversation takes: each platform's descriptor states its documented
 * limits (`sendBudget` in adapters/descriptor.ts); the card publisher paces and coalesces edits by it
 * (./edit-pacer.ts), and an adapter may configure its SDK's throttling from it.
 */

/** At most `count` requests in any `perMs`, and (when set) `minGapMs` between two of them. */
export interface SendRate {
  count: number;
  perMs: number;
  /** The least time between two requests, spreading `count` over `perMs` instead of a burst. */
  minGapMs?: number;
}

/** A conversation's budget: where it is counted, and its rates for new messages and for edits. */
export interface SendBudget {
  /**
   * What the limits count against: conversations with the same scope share one budget (the topics of
   * a group, the threads of a channel).
   */
  scope: string;
  /** New messages. */
  posts: SendRate;
  /** Edits of posted messages. */
  edits: SendRate;
}

/** The budget of a platform that states none: one message and one edit per second per conversation. */
export const DEFAULT_SEND_BUDGET: Omit<SendBudget, 'scope'> = {
  posts: { count: 1, perMs: 1000 },
  edits: { count: 1, perMs: 1000 },
};

/** The least time between two requests that `rate` allows on average (its `minGapMs`, or `perMs / count`). */
export function spacingMs(rate: SendRate): number {
  return Math.max(rate.minGapMs ?? 0, Math.ceil(rate.perMs / Math.max(1, rate.count)));
}

/** The channel of a conversation id without its thread (`p:W1:C1:T7` → `p:W1:C1`): threads share their channel's budget. */
export function channelScope(conversationId: string): string {
  return conversationId.split(':').slice(0, 3).join(':');
}

/**
 * A platform's budget counted per channel (a channel's threads share it), with the same rate for new
 * messages and edits: at most `count` of each in any `perMs`.
 */
export function perChannel(count: number, perMs: number): (conversationId: string) => SendBudget {
  return (conversationId) => ({
    scope: channelScope(conversationId),
    posts: { count, perMs },
    edits: { count, perMs },
  });
}

/** No limit to speak of (the terminal; platforms unknown to this process). */
export const UNLIMITED_SEND_BUDGET: Omit<SendBudget, 'scope'> = {
  posts: { count: 1_000_000, perMs: 1000 },
  edits: { count: 1_000_000, perMs: 1000 },
};
