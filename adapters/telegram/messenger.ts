/**
 * Posts and edits cards in Telegram chats by conversation id and handle alone, so any process (a
 * worker following a deployment) can keep a card up to date. All calls go through the bot's API
 * object, i.e. through grammY's auto-retry and throttler: a 429 waits `retry_after`, then the same
 * request is sent again.
 */

import type { Api, RawApi } from 'grammy';
import { GrammyError, InputFile } from 'grammy';
import type { Logger } from 'pino';
import type { ChatUser, MessageHandle } from '../../src/core/command';
import { parseConversationId } from '../../src/core/conversation';
import { ConversationGoneError } from '../../src/core/errors';
import type { Messenger } from '../../src/core/messenger';
import type { Card } from '../../src/core/reply';
import { chatOf, messageHandle, telegramConversationId } from './ids';
import { renderCard } from './render';

/** Where a card goes besides the chat: a forum topic, a message it answers. */
export interface SendOptions {
  threadId?: number;
  /** Id of the message this card answers (groups: the user's command). */
  replyTo?: number;
}

/** True when Telegram refused because the bot may not write to this user (never started it). */
export function isBlockedByUser(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 403;
}

/**
 * True when Telegram says the bot can no longer post in the chat: every 403 ("Forbidden: bot was
 * kicked from the group chat", "… from the supergroup chat", "bot was blocked by the user", "bot is
 * not a member of the channel chat", "user is deactivated") and 400 "Bad Request: chat not found".
 * The Bot API documents no codes beyond `error_code` and `description`; these descriptions are the
 * ones the Bot API answers with (github.com/TelegramBotAPI/errors, the list of observed errors), and
 * grammY exposes them as `GrammyError.error_code` / `.description` (grammy 1.46.0,
 * out/core/error.js). A 400 "group chat was upgraded to a supergroup" is not gone: the chat moved.
 */
export function isChatGone(error: unknown): error is GrammyError {
  if (!(error instanceof GrammyError)) return false;
  if (error.error_code === 403) return true;
  return error.error_code === 400 && /chat not found/i.test(error.description);
}

/**
 * The supergroup a basic group became, when Telegram refused a request for that reason: 400 "Bad
 * Request: group chat was upgraded to a supergroup chat" with `parameters.migrate_to_chat_id` (the
 * Bot API's ResponseParameters: "The group has been migrated to a supergroup with the specified
 * identifier"). The id in the parameters is what counts; the wording has varied.
 */
export function migratedTo(error: unknown): number | undefined {
  if (!(error instanceof GrammyError) || error.error_code !== 400) return undefined;
  return error.parameters?.migrate_to_chat_id;
}

/**
 * True for a 403 that only says this person turned the bot away ("Forbidden: bot was blocked by
 * the user", "Forbidden: user is deactivated"): routine, nothing to fix on Deckhand's side.
 */
export function isRoutineRefusal(error: unknown): boolean {
  return (
    error instanceof GrammyError &&
    error.error_code === 403 &&
    /blocked by the user|user is deactivated/i.test(error.description)
  );
}

/** True for Telegram's answer to an edit that changes nothing. */
export function isNotModified(error: unknown): boolean {
  return error instanceof GrammyError && /message is not modified/i.test(error.description);
}

/** The Telegram {@link Messenger}. */
export class TelegramMessenger implements Messenger {
  constructor(
    private readonly api: Api<RawApi>,
    private readonly logger: Logger,
    /** Moves a conversation's stored state to the supergroup its group became. */
    private readonly onMigrated?: (from: string, to: string) => Promise<unknown>,
  ) {}

  /**
   * A user's private chat with the bot: its chat id is the user's id (core.telegram.org/bots/api,
   * Chat: "for private chats, the chat id equals the user id"). Telegram delivers there only after
   * the user started the bot; otherwise the post is refused (403) and nothing is sent.
   */
  async openDirect(user: ChatUser): Promise<string> {
    if (!/^\d+$/.test(user.id)) throw new Error(`not a Telegram user id: ${user.id}`);
    return telegramConversationId(user.workspace, Number(user.id));
  }

  /**
   * A message's link, where Telegram has one: in a supergroup or channel (`https://t.me/c/<id>/<msg>`,
   * the chat id without its `-100`), which members can open. Private chats and basic groups have none.
   */
  async linkTo(handle: MessageHandle): Promise<string | undefined> {
    const { chat, message } = handle.ref;
    if (!chat?.startsWith('-100') || !message) return undefined;
    return `https://t.me/c/${chat.slice(4)}/${message}`;
  }

  /**
   * Posts a card in a chat. Telegram has no idempotency key and a bot cannot read a chat's history, so
   * a post whose earlier attempt was interrupted (`card.delivery.since`: the process died between the
   * request and recording Telegram's answer) cannot be checked: it is posted again (at least once,
   * never lost; a duplicate only in that window). The window is kept to one request: the posted-record
   * is written right after Telegram's answer.
   */
  async post(conversationId: string, card: Card): Promise<MessageHandle> {
    const { chatId, threadId } = chatOf(conversationId);
    if (card.delivery?.since !== undefined) {
      this.logger.warn(
        { chat: chatId, delivery: card.delivery.key },
        'posting an interrupted announcement again; Telegram cannot tell whether the first attempt arrived',
      );
    }
    try {
      return await this.send(conversationId, chatId, card, threadId ? { threadId } : {});
    } catch (error) {
      throw this.translate(error, conversationId);
    }
  }

  /** Posts a card as a reply to a posted message (Telegram's threads are replies). */
  async postInThread(parent: MessageHandle, card: Card): Promise<MessageHandle> {
    const { chatId, threadId } = chatOf(parent.conversationId);
    try {
      return await this.send(parent.conversationId, chatId, card, {
        ...(threadId ? { threadId } : {}),
        replyTo: Number(parent.ref.message),
      });
    } catch (error) {
      throw this.translate(error, parent.conversationId);
    }
  }

  /**
   * Logs a person's routine refusal ({@link isRoutineRefusal}: they blocked the bot) as a warning:
   * the answer is dropped, nothing is wrong with Deckhand.
   */
  refused(conversationId: string, error: GrammyError): void {
    this.logger.warn(
      { conversationId, code: error.error_code, reason: error.description },
      'telegram user turned the bot away; answer dropped',
    );
  }

  /** A chat the bot was removed from (or blocked in) becomes the core's {@link ConversationGoneError}. */
  private translate(error: unknown, conversationId: string): unknown {
    if (!isChatGone(error)) return error;
    this.logger.info({ conversationId, code: error.error_code }, 'telegram chat is gone');
    return new ConversationGoneError(conversationId, error.description);
  }

  /**
   * Sends a card (see {@link sendTo}). When the chat was a group that became a supergroup, the
   * conversation's stored state is moved to the new chat and the card is sent there instead (not as
   * a reply: message ids differ in the new chat); the handle then names the new conversation.
   */
  async send(
    conversationId: string,
    chatId: number,
    card: Card,
    options: SendOptions = {},
  ): Promise<MessageHandle> {
    try {
      return await this.sendTo(conversationId, chatId, card, options);
    } catch (error) {
      const newChatId = migratedTo(error);
      if (newChatId === undefined) throw error;
      const moved = telegramConversationId(parseConversationId(conversationId).workspace, newChatId);
      this.logger.info(
        { from: conversationId, to: moved },
        'telegram group became a supergroup: sending there',
      );
      try {
        await this.onMigrated?.(conversationId, moved);
      } catch (moveError) {
        this.logger.warn(
          { err: moveError, from: conversationId, to: moved },
          'could not move the group state',
        );
      }
      return this.sendTo(moved, newChatId, card, {});
    }
  }

  /**
   * Sends a card: one or more HTML messages (the keyboard on the last), then its documents. The
   * handle points at the message with the keyboard, the one later edits change.
   */
  private async sendTo(
    conversationId: string,
    chatId: number,
    card: Card,
    options: SendOptions = {},
  ): Promise<MessageHandle> {
    const rendered = renderCard(card, 'post');
    const thread = options.threadId ? { message_thread_id: options.threadId } : {};
    let lastId = 0;
    for (const [index, html] of rendered.parts.entries()) {
      const last = index === rendered.parts.length - 1;
      const sent = await this.api.sendMessage(chatId, html, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...thread,
        ...(index === 0 && options.replyTo
          ? { reply_parameters: { message_id: options.replyTo, allow_sending_without_reply: true } }
          : {}),
        ...(last && rendered.keyboard ? { reply_markup: rendered.keyboard } : {}),
      });
      lastId = sent.message_id;
    }
    const photo = rendered.photo;
    if (photo) {
      await this.api.sendPhoto(
        chatId,
        photo.data ? new InputFile(photo.data, photo.filename) : (photo.url as string),
        {
          ...thread,
          caption: photo.caption,
          parse_mode: 'HTML',
        },
      );
    }
    for (const document of rendered.documents) {
      await this.api.sendDocument(chatId, new InputFile(Buffer.from(document.content), document.filename), {
        ...thread,
        ...(document.caption ? { caption: document.caption, parse_mode: 'HTML' as const } : {}),
      });
    }
    return messageHandle(conversationId, chatId, lastId, options.threadId);
  }

  /** Edits a posted card in place; an edit that changes nothing is not an error. */
  async update(handle: MessageHandle, card: Card): Promise<void> {
    const chatId = Number(handle.ref.chat);
    const messageId = Number(handle.ref.message);
    const rendered = renderCard(card, 'edit');
    try {
      await this.api.editMessageText(chatId, messageId, rendered.parts[0] as string, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(rendered.keyboard ? { reply_markup: rendered.keyboard } : {}),
      });
    } catch (error) {
      if (isNotModified(error)) return;
      if (error instanceof GrammyError && /message to edit not found/i.test(error.description)) {
        this.logger.warn({ chat: chatId, message: messageId }, 'telegram card to update was deleted');
        return;
      }
      throw this.translate(error, handle.conversationId);
    }
  }
}
