/**
 * The reply surface of one Telegram invocation. Public cards go to the chat (in a group, as a reply
 * to the user's command, in its forum topic); private cards go to the user's private chat with the
 * bot — Telegram has no ephemeral messages — and when the user never started that chat, the group
 * gets a short note with a button to open it, never the private content.
 */
import type { GrammyError } from 'grammy';
import type { Chat, User } from 'grammy/types';
import type { CardSurface } from '../../src/core/card-surface';
import type { Invocation, MessageHandle } from '../../src/core/command';
import { parseConversationId } from '../../src/core/conversation';
import type { Card } from '../../src/core/reply';
import { t } from '../../src/i18n/translate';
import type { TelegramForms } from './forms';
import { telegramConversationId } from './ids';
import { isBlockedByUser, isRoutineRefusal, type TelegramMessenger } from './messenger';

/** Where an invocation happened. */
export interface TelegramPlace {
  botId: string;
  chat: Chat;
  user: User;
  /** Forum topic, when the chat has topics. */
  threadId?: number;
  /** The message to answer in groups (the command, or the card whose button was pressed). */
  replyTo?: number;
}

/** What a surface needs. */
export interface SurfaceDeps {
  messenger: TelegramMessenger;
  forms: TelegramForms;
  botUsername(): string;
}

/** A user's name as cards show it. */
export function displayName(user: User): string {
  if (user.username) return `@${user.username}`;
  return [user.first_name, user.last_name].filter(Boolean).join(' ');
}

/** The invocation of a Telegram user in a chat. */
export function invocationOf(place: TelegramPlace): Invocation {
  const conversationId = telegramConversationId(place.botId, place.chat.id, place.threadId);
  return {
    user: {
      platform: 'telegram',
      id: String(place.user.id),
      name: displayName(place.user),
      workspace: place.botId,
      ...(place.user.language_code ? { locale: place.user.language_code } : {}),
    },
    conversation: parseConversationId(conversationId),
    conversationId,
    isPrivate: place.chat.type === 'private',
  };
}

/** Builds the {@link CardSurface} of one invocation. */
export function telegramSurface(deps: SurfaceDeps, place: TelegramPlace): CardSurface {
  const isPrivate = place.chat.type === 'private';
  const conversationId = telegramConversationId(place.botId, place.chat.id, place.threadId);
  const inChat = {
    ...(place.threadId ? { threadId: place.threadId } : {}),
    ...(!isPrivate && place.replyTo ? { replyTo: place.replyTo } : {}),
  };
  /** Set once the chat was told how to open the private chat (say it once per invocation). */
  let toldToStart = false;
  const privately = async (card: Card): Promise<MessageHandle | undefined> => {
    const direct = telegramConversationId(place.botId, place.user.id);
    try {
      return await deps.messenger.send(direct, place.user.id, card);
    } catch (error) {
      if (!isBlockedByUser(error)) throw error;
      if (toldToStart) return undefined;
      toldToStart = true;
      await deps.messenger.send(
        conversationId,
        place.chat.id,
        {
          // Said to the person, in their language (the private answer's).
          text: t(card.locale, 'telegram-start-private-chat', displayName(place.user)),
          status: 'info',
          links: [
            {
              label: t(card.locale, 'telegram-open-private-chat'),
              url: `https://t.me/${deps.botUsername()}?start=hello`,
            },
          ],
          ...(card.locale ? { locale: card.locale } : {}),
        },
        inChat,
      );
      return undefined;
    }
  };
  /** Posts in the chat itself; a person who blocked the bot is not an error (the answer is dropped). */
  const here = async (card: Card): Promise<MessageHandle | undefined> => {
    try {
      return await deps.messenger.send(conversationId, place.chat.id, card, inChat);
    } catch (error) {
      if (!isPrivate || !isRoutineRefusal(error)) throw error;
      deps.messenger.refused(conversationId, error as GrammyError);
      return undefined;
    }
  };
  return {
    reply: (card) => (card.visibility === 'private' && !isPrivate ? privately(card) : here(card)),
    update: (handle, card) => deps.messenger.update(handle, card),
    openForm: async (formId, form) => {
      const outcome = await deps.forms.open(formId, form, place.user, {
        conversationId,
        chatId: place.chat.id,
        isPrivate,
        ...inChat,
      });
      if (outcome === 'parked') toldToStart = true;
    },
  };
}
