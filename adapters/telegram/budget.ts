/**
 * Telegram's send limits (core.telegram.org/bots/faq, "My bot is hitting limits"): about one message per
 * second in a private chat, and in a group about 20 messages and 20 edits per minute; the topics of a
 * forum share their group's budget.
 */
import { channelScope, type SendBudget } from '../descriptor';

/** The budget of a private chat: about one message and one edit per second. */
export const TELEGRAM_CHAT_BUDGET: Omit<SendBudget, 'scope'> = {
  posts: { count: 1, perMs: 1000 },
  edits: { count: 1, perMs: 1000 },
};

/**
 * The budget of a group: 20 messages and 20 edits per minute, each spread out (a live card is edited
 * at most every 3 s, never 20 times at once and then not for a minute).
 */
export const TELEGRAM_GROUP_BUDGET: Omit<SendBudget, 'scope'> = {
  posts: { count: 20, perMs: 60_000, minGapMs: 1000 },
  edits: { count: 20, perMs: 60_000, minGapMs: 3000 },
};

/** The budget of a Telegram conversation (`telegram:<bot>:<chat>[:<topic>]`); groups have negative chat ids. */
export function telegramSendBudget(conversationId: string): SendBudget {
  const scope = channelScope(conversationId);
  const group = (conversationId.split(':')[2] ?? '').startsWith('-');
  return { scope, ...(group ? TELEGRAM_GROUP_BUDGET : TELEGRAM_CHAT_BUDGET) };
}
