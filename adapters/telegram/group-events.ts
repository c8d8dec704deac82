/**
 * Group messages that are not a person typing:
 *
 * - a group upgraded to a supergroup: Telegram sends `migrate_to_chat_id` in the old chat and
 *   `migrate_from_chat_id` in the new one, and from then on the old id answers 400 "group chat was
 *   upgraded to a supergroup chat" (with `parameters.migrate_to_chat_id`). Either message moves what
 *   Deckhand keeps for the group (binding, subscriptions, digest) to the new id; the second finds
 *   nothing left to move.
 * - a message sent as the chat itself: an anonymous group admin (`from` is GroupAnonymousBot,
 *   1087968824, kept for backwards compatibility only) or a channel posting in its discussion group.
 *   `sender_chat` is then the group or the channel (Bot API, Message.sender_chat), so nobody can be
 *   held to a permission: a command from it is answered with what to do instead.
 */
import type { Message } from 'grammy/types';
import type { Logger } from 'pino';
import type { ConversationMover } from '../../src/core/host';
import { type Translator, translator } from '../../src/i18n/translate';
import { telegramConversationId } from './ids';

/** User id Telegram gives messages of anonymous group admins (`@GroupAnonymousBot`). */
export const ANONYMOUS_ADMIN_ID = 1087968824;

/** True when the message was sent as a chat (an anonymous admin, a channel), not by a person. */
export function sentAsChat(message: Message): boolean {
  return message.sender_chat !== undefined || message.from?.id === ANONYMOUS_ADMIN_ID;
}

/** The answer to a command sent as a chat. */
export function anonymousSenderText(message: Message, say: Translator = translator('en')): string {
  const asGroup = !message.sender_chat || message.sender_chat.id === message.chat.id;
  return asGroup ? say.t('telegram-anonymous-admin') : say.t('telegram-anonymous-channel');
}

/** The old and new chat ids of a migration service message, if it is one. */
export function migrationOf(message: Message): { from: number; to: number } | undefined {
  if (message.migrate_to_chat_id !== undefined) {
    return { from: message.chat.id, to: message.migrate_to_chat_id };
  }
  if (message.migrate_from_chat_id !== undefined) {
    return { from: message.migrate_from_chat_id, to: message.chat.id };
  }
  return undefined;
}

/** Moves the stored state of a migrated group to its new id (idempotent: both messages may come). */
export async function followMigration(
  deps: { botId: string; conversations?: ConversationMover | undefined; logger: Logger },
  migration: { from: number; to: number },
): Promise<void> {
  const from = telegramConversationId(deps.botId, migration.from);
  const to = telegramConversationId(deps.botId, migration.to);
  const moved = (await deps.conversations?.move(from, to)) ?? [];
  deps.logger.info({ from, to, moved }, 'telegram group upgraded to a supergroup: followed it');
}
