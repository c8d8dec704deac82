/**
 * What the fake Bot API knows: chats and their messages (with every edit), files, callback queries,
 * registered commands and the webhook. Tests read it to assert on what a user would see.
 */

import type { BotCommand, Chat, InlineKeyboardMarkup, Message, User, UserFromGetMe } from 'grammy/types';
import type { ParsedEntity } from './telegram-html';
import type { FakePhoto } from './telegram-photo';
import { BotApiError } from './telegram-rules';

/** One version of a message's content (the first send, then each edit). */
export interface MessageVersion {
  at: number;
  /** Markup as sent by the bot (HTML), when it used a parse mode. */
  html?: string;
  /** What the user sees. */
  text: string;
  entities: ParsedEntity[];
  replyMarkup?: InlineKeyboardMarkup;
}

/** A message in a chat, as a user would see it now, with its history. */
export interface FakeMessage {
  chatId: number;
  messageId: number;
  threadId?: number;
  from: User;
  fromBot: boolean;
  date: number;
  /** Current HTML source (bot messages sent with parse_mode HTML). */
  html?: string | undefined;
  /** Current text, or the caption of a document. */
  text: string;
  entities: ParsedEntity[];
  replyMarkup?: InlineKeyboardMarkup | undefined;
  document?:
    | { fileId: string; fileName: string; mimeType?: string; content?: Buffer; size: number }
    | undefined;
  /** A photo (`sendPhoto`), its caption in `text`. */
  photo?: FakePhoto;
  replyTo?: number | undefined;
  versions: MessageVersion[];
  deleted: boolean;
}

/** A file Telegram stores (sent by a user, or uploaded by the bot). */
export interface FakeFile {
  fileId: string;
  fileUniqueId: string;
  fileName?: string;
  mimeType?: string;
  size: number;
  /** Absent for files only described by their size (too big to download anyway). */
  content?: Buffer;
  path: string;
}

/** A callback query the fake delivered, and whether the bot answered it. */
export interface FakeCallback {
  id: string;
  data: string;
  createdAt: number;
  answeredAt?: number;
  answer?: { text?: string; show_alert?: boolean };
}

interface ChatState {
  chat: Chat;
  messages: FakeMessage[];
  nextMessageId: number;
}

/** The fake's whole world. */
export class FakeTelegramState {
  readonly chats = new Map<number, ChatState>();
  /** Users who opened a private chat with the bot (it may message them). */
  readonly started = new Set<number>();
  /** Users who blocked the bot: "Forbidden: bot was blocked by the user" (403). */
  readonly blocked = new Set<number>();
  /**
   * Groups upgraded to supergroups, old id → new id: posting to the old id is refused with 400 and
   * `parameters.migrate_to_chat_id` (github.com/TelegramBotAPI/errors, bad-request-group-chat-migrated).
   */
  readonly migrated = new Map<number, number>();
  readonly files = new Map<string, FakeFile>();
  readonly callbacks = new Map<string, FakeCallback>();
  /** Registered commands by scope (`default`, `all_private_chats`, …). */
  readonly commands = new Map<string, BotCommand[]>();
  /**
   * The webhook set with setWebhook; `lastError*` is what getWebhookInfo reports of the latest failed
   * delivery (WebhookInfo.last_error_date / last_error_message, core.telegram.org/bots/api#webhookinfo).
   */
  webhook:
    | {
        url: string;
        secretToken?: string;
        allowedUpdates?: string[];
        lastErrorDate?: number;
        lastErrorMessage?: string;
      }
    | undefined;
  /** Updates waiting for the bot (the fake's update queue answers it). */
  pendingUpdates: () => number = () => 0;
  /** Drops the waiting updates (the fake's update queue answers it). */
  dropPendingUpdates: () => void = () => {};
  private nextFile = 1;

  constructor(readonly bot: UserFromGetMe) {}

  /** Adds a chat the bot is in. */
  addChat(chat: Chat): void {
    if (!this.chats.has(chat.id)) this.chats.set(chat.id, { chat, messages: [], nextMessageId: 1 });
  }

  /** The chat the bot may post to, or the Bot API's refusal. */
  chatFor(chatId: unknown): ChatState {
    const id = Number(chatId);
    const movedTo = this.migrated.get(id);
    if (movedTo !== undefined) {
      throw new BotApiError(400, 'Bad Request: group chat was upgraded to a supergroup chat', {
        migrate_to_chat_id: movedTo,
      });
    }
    if (this.blocked.has(id)) throw new BotApiError(403, 'Forbidden: bot was blocked by the user');
    const state = this.chats.get(id);
    if (state?.chat.type === 'private' && !this.started.has(id)) {
      throw new BotApiError(403, "Forbidden: bot can't initiate conversation with a user");
    }
    if (!state) {
      if (id > 0) throw new BotApiError(403, "Forbidden: bot can't initiate conversation with a user");
      throw new BotApiError(400, 'Bad Request: chat not found');
    }
    return state;
  }

  /** Appends a message to a chat and returns it. */
  addMessage(chatId: number, message: Omit<FakeMessage, 'messageId' | 'chatId' | 'date'>): FakeMessage {
    const state = this.chats.get(chatId);
    if (!state) throw new Error(`fake: no chat ${chatId}`);
    const stored: FakeMessage = {
      ...message,
      chatId,
      messageId: state.nextMessageId++,
      date: Math.floor(Date.now() / 1000),
    };
    state.messages.push(stored);
    return stored;
  }

  /** A message by chat and id, or the Bot API's refusal. */
  messageFor(chatId: unknown, messageId: unknown, action: 'edit' | 'delete' | 'reply'): FakeMessage {
    const state = this.chatFor(chatId);
    const message = state.messages.find((m) => m.messageId === Number(messageId) && !m.deleted);
    if (!message) {
      const what = { edit: 'message to edit', delete: 'message to delete', reply: 'message to be replied' };
      throw new BotApiError(400, `Bad Request: ${what[action]} not found`);
    }
    return message;
  }

  /** Stores a file and returns it. */
  addFile(file: { fileName?: string; mimeType?: string; content?: Buffer; size?: number }): FakeFile {
    const n = this.nextFile++;
    const extension = /\.[A-Za-z0-9]{1,8}$/.exec(file.fileName ?? '')?.[0] ?? '';
    const stored: FakeFile = {
      fileId: `BQACAgIAAxkBAAI${String(n).padStart(6, '0')}`,
      fileUniqueId: `AgAD${String(n).padStart(4, '0')}`,
      ...(file.fileName ? { fileName: file.fileName } : {}),
      ...(file.mimeType ? { mimeType: file.mimeType } : {}),
      ...(file.content ? { content: file.content } : {}),
      size: file.size ?? file.content?.length ?? 0,
      path: `documents/file_${n}${extension}`,
    };
    this.files.set(stored.fileId, stored);
    return stored;
  }

  /** Messages in a chat (the bot's and the users'), oldest first, deleted ones left out. */
  messagesIn(chatId: number): FakeMessage[] {
    return (this.chats.get(chatId)?.messages ?? []).filter((m) => !m.deleted);
  }

  /** A message as the Bot API returns it. */
  toApi(message: FakeMessage): Message {
    const chat = this.chats.get(message.chatId)?.chat as Chat;
    const entities = message.entities.map((e) => ({ ...e })) as Message['entities'];
    const out: Record<string, unknown> = {
      message_id: message.messageId,
      date: message.date,
      chat,
      from: message.from,
      ...(message.threadId ? { message_thread_id: message.threadId, is_topic_message: true } : {}),
    };
    if (message.photo) {
      // Message.photo: an array of PhotoSize (the Bot API sends a few sizes; the fake keeps the one).
      out.photo = [
        {
          file_id: message.photo.fileId,
          file_unique_id: this.files.get(message.photo.fileId)?.fileUniqueId ?? 'x',
          width: message.photo.width,
          height: message.photo.height,
          file_size: message.photo.size,
        },
      ];
      if (message.text) out.caption = message.text;
      if (entities?.length) out.caption_entities = entities;
    } else if (message.document) {
      out.document = {
        file_id: message.document.fileId,
        file_unique_id: this.files.get(message.document.fileId)?.fileUniqueId ?? 'x',
        file_name: message.document.fileName,
        ...(message.document.mimeType ? { mime_type: message.document.mimeType } : {}),
        file_size: message.document.size,
      };
      if (message.text) out.caption = message.text;
      if (entities?.length) out.caption_entities = entities;
    } else {
      out.text = message.text;
      if (entities?.length) out.entities = entities;
    }
    if (message.replyMarkup) out.reply_markup = message.replyMarkup;
    if (message.replyTo) {
      const original = this.chats.get(message.chatId)?.messages.find((m) => m.messageId === message.replyTo);
      if (original) out.reply_to_message = this.toApi({ ...original, replyTo: undefined });
    }
    return out as unknown as Message;
  }
}
