/**
 * Telegram conversation ids and message handles. A conversation is
 * `telegram:<bot id>:<chat id>[:<topic id>]` (the bot id is the workspace, so two bots never share
 * state); a handle's `ref` is `{ chat, message[, thread] }` — plain strings any process can use.
 */
import type { MessageHandle } from '../../src/core/command';
import { conversationId, parseConversationId } from '../../src/core/conversation';

/** The bot's numeric id: the part of the token before the colon. */
export function botIdOf(token: string): string {
  return token.split(':')[0] ?? token;
}

/** The conversation id of a chat (and forum topic). */
export function telegramConversationId(botId: string, chatId: number, threadId?: number): string {
  return conversationId({
    platform: 'telegram',
    workspace: botId,
    channel: String(chatId),
    ...(threadId ? { thread: String(threadId) } : {}),
  });
}

/** The chat (and forum topic) of a Telegram conversation id. */
export function chatOf(id: string): { chatId: number; threadId?: number } {
  const ref = parseConversationId(id);
  if (ref.platform !== 'telegram' || !/^-?\d+$/.test(ref.channel)) {
    throw new Error(`not a Telegram conversation: ${id}`);
  }
  return { chatId: Number(ref.channel), ...(ref.thread ? { threadId: Number(ref.thread) } : {}) };
}

/** A handle on a posted message. */
export function messageHandle(
  conversation: string,
  chatId: number,
  messageId: number,
  threadId?: number,
): MessageHandle {
  return {
    platform: 'telegram',
    conversationId: conversation,
    ref: {
      chat: String(chatId),
      message: String(messageId),
      ...(threadId ? { thread: String(threadId) } : {}),
    },
  };
}
