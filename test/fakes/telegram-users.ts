/**
 * What users do, as the updates Telegram would deliver: write in a private chat or a group, send a
 * document, video or audio, press an inline button. Each helper records the user's message in the
 * fake's state (so the bot can reply to it) and queues the update, unless `deliver: false` asks for
 * the update alone (to deliver it twice, or through a webhook).
 */
import type { Chat, MessageEntity, Update, User } from 'grammy/types';
import type { FakeMessage, FakeTelegramState } from './telegram-state';

/** Who anonymous group admins post as (Telegram's GroupAnonymousBot, id 1087968824). */
export const ANONYMOUS_ADMIN: User = {
  id: 1087968824,
  is_bot: true,
  first_name: 'Group',
  username: 'GroupAnonymousBot',
};

/** Options of a user action. */
export interface ActionOptions {
  /** Queue the update for getUpdates (default true). */
  deliver?: boolean;
  replyTo?: number;
  threadId?: number;
}

/** A file a user sends. Give `content`, or only `size` for a file too big to download anyway. */
export interface UserFile {
  name: string;
  content?: Buffer | string;
  size?: number;
  mimeType?: string;
  kind?: 'document' | 'video' | 'audio';
  /** Leave `file_size` out of the update (Telegram may), so only getFile finds out the size. */
  hideSize?: boolean;
}

function commandEntities(text: string): MessageEntity[] {
  const match = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text);
  return match ? [{ type: 'bot_command', offset: 0, length: match[0].length }] : [];
}

/** User-side helpers of the fake Bot API. */
export class UserActions {
  private nextUpdateId = 10_000;
  private nextCallback = 1;
  private nextGroup = 1;

  constructor(readonly state: FakeTelegramState) {}

  /** Queues an update for the bot (the server overrides it). */
  protected enqueue(_update: Update): void {}

  /** A Telegram user. */
  user(id: number, firstName: string, username?: string): User {
    return {
      id,
      is_bot: false,
      first_name: firstName,
      ...(username ? { username } : {}),
      language_code: 'en',
    };
  }

  /** The private chat between `user` and the bot. */
  privateChat(user: User): Chat {
    const chat = {
      id: user.id,
      type: 'private',
      first_name: user.first_name,
      ...(user.username ? { username: user.username } : {}),
    } as Chat;
    this.state.addChat(chat);
    return chat;
  }

  /** A supergroup the bot is a member of. */
  group(title: string): Chat {
    const chat = { id: -1_001_000_000_000 - this.nextGroup++, type: 'supergroup', title } as Chat;
    this.state.addChat(chat);
    return chat;
  }

  /** A basic group (not a supergroup) the bot is a member of; it can be upgraded later. */
  basicGroup(title: string): Chat {
    const chat = {
      id: -599_000_000 - this.nextGroup++,
      type: 'group',
      title,
      all_members_are_administrators: false,
    } as Chat;
    this.state.addChat(chat);
    return chat;
  }

  /**
   * `by` upgrades a basic group to a supergroup: the new chat gets a new id, the old one answers 400
   * with `migrate_to_chat_id` from now on, and the bot receives the two service messages Telegram
   * sends — `migrate_to_chat_id` in the old chat (from the member who upgraded it) and
   * `migrate_from_chat_id` in the new one (from GroupAnonymousBot, `sender_chat` the supergroup),
   * shaped like the captures in fixtures/telegram-captures.ts.
   */
  upgradeGroup(by: User, old: Chat, options: ActionOptions = {}) {
    const chat = {
      id: -1_001_555_000_000 - this.nextGroup++,
      type: 'supergroup',
      title: (old as { title: string }).title,
    } as Chat;
    this.state.addChat(chat);
    this.state.migrated.set(old.id, chat.id);
    const date = Math.floor(Date.now() / 1000);
    const from = this.record(by, old, '', [], {});
    const to = this.state.addMessage(chat.id, {
      from: ANONYMOUS_ADMIN,
      fromBot: false,
      text: '',
      entities: [],
      versions: [],
      deleted: false,
    });
    const first = this.emit(
      {
        update_id: 0,
        message: { message_id: from.messageId, from: by, chat: old, date, migrate_to_chat_id: chat.id },
      } as unknown as Update,
      options,
    );
    const second = this.emit(
      {
        update_id: 0,
        message: {
          message_id: to.messageId,
          from: ANONYMOUS_ADMIN,
          sender_chat: chat,
          chat,
          date,
          migrate_from_chat_id: old.id,
        },
      } as unknown as Update,
      options,
    );
    return { chat, updates: [first.update, second.update] };
  }

  /**
   * An anonymous group admin writes `text` in `chat`: Telegram sends it from GroupAnonymousBot with
   * `sender_chat` set to the group itself, so the bot cannot tell which admin it was.
   */
  sendAnonymously(chat: Chat, text: string, options: ActionOptions = {}) {
    const entities = commandEntities(text);
    const message = this.record(ANONYMOUS_ADMIN, chat, text, entities, options);
    const payload = {
      ...this.state.toApi(message),
      sender_chat: chat,
      text,
      ...(entities.length ? { entities } : {}),
    };
    return this.emit({ update_id: 0, message: payload } as Update, options, message);
  }

  /**
   * The user sends a photo (Telegram keeps a few sizes of it, smallest first), optionally captioned.
   * Each size is a file of its own; `sizes` gives their width and bytes.
   */
  sendPhoto(
    from: User,
    chat: Chat,
    sizes: { width: number; content: Buffer }[],
    caption = '',
    options: ActionOptions = {},
  ) {
    const photo = sizes.map((size) => {
      const stored = this.state.addFile({
        fileName: `photo_${size.width}.jpg`,
        mimeType: 'image/jpeg',
        content: size.content,
      });
      return {
        file_id: stored.fileId,
        file_unique_id: stored.fileUniqueId,
        file_size: stored.size,
        width: size.width,
        height: size.width,
      };
    });
    const entities = commandEntities(caption);
    const message = this.record(from, chat, caption, entities, options);
    const payload: Record<string, unknown> = { ...this.state.toApi({ ...message, text: '' }), photo };
    delete payload.text;
    if (caption) {
      payload.caption = caption;
      if (entities.length) payload.caption_entities = entities;
    }
    return this.emit({ update_id: 0, message: payload } as unknown as Update, options, message);
  }

  /** Delivers an update given as Telegram sent it (a captured payload), numbered in order with the rest. */
  replay(update: Omit<Update, 'update_id'>, options: ActionOptions = {}) {
    return this.emit({ update_id: 0, ...update } as Update, options);
  }

  /** The user writes `text` in `chat` (a `/command` gets its bot_command entity). */
  sendText(from: User, chat: Chat, text: string, options: ActionOptions = {}) {
    const entities = commandEntities(text);
    const message = this.record(from, chat, text, entities, options);
    const api = this.state.toApi(message);
    const payload = { ...api, text, ...(entities.length ? { entities } : {}) };
    return this.emit({ update_id: 0, message: payload } as Update, options, message);
  }

  /** The user sends a file, optionally with a caption (which may hold a command). */
  sendFile(from: User, chat: Chat, file: UserFile, caption = '', options: ActionOptions = {}) {
    const content = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
    const stored = this.state.addFile({
      fileName: file.name,
      ...(file.mimeType ? { mimeType: file.mimeType } : {}),
      ...(content ? { content } : {}),
      ...(file.size !== undefined ? { size: file.size } : {}),
    });
    const entities = commandEntities(caption);
    const message = this.record(from, chat, caption, entities, options);
    message.document = {
      fileId: stored.fileId,
      fileName: file.name,
      size: stored.size,
      ...(file.mimeType ? { mimeType: file.mimeType } : {}),
      ...(content ? { content } : {}),
    };
    const base = {
      file_id: stored.fileId,
      file_unique_id: stored.fileUniqueId,
      ...(file.hideSize ? {} : { file_size: stored.size }),
    };
    const media: Record<string, unknown> = {
      ...base,
      file_name: file.name,
      ...(file.mimeType ? { mime_type: file.mimeType } : {}),
    };
    if (file.kind === 'video') Object.assign(media, { width: 640, height: 360, duration: 12 });
    if (file.kind === 'audio') Object.assign(media, { duration: 95 });
    const api = this.state.toApi({ ...message, document: undefined, text: '' });
    const payload: Record<string, unknown> = { ...api, [file.kind ?? 'document']: media };
    delete payload.text;
    if (caption) {
      payload.caption = caption;
      if (entities.length) payload.caption_entities = entities;
    }
    return this.emit({ update_id: 0, message: payload } as unknown as Update, options, message);
  }

  /** The user presses the inline button labelled `label` (or carrying that callback_data). */
  click(from: User, message: FakeMessage, label: string, options: ActionOptions = {}) {
    const buttons = (message.replyMarkup?.inline_keyboard ?? []).flat();
    const button = buttons.find(
      (b) => b.text === label || ('callback_data' in b && b.callback_data === label),
    );
    if (!button || !('callback_data' in button)) {
      throw new Error(
        `fake: no button "${label}" on message ${message.messageId}: ${JSON.stringify(buttons)}`,
      );
    }
    const id = `${4_000_000_000_000 + this.nextCallback++}`;
    this.state.callbacks.set(id, { id, data: button.callback_data, createdAt: Date.now() });
    const update: Update = {
      update_id: 0,
      callback_query: {
        id,
        from,
        message: this.state.toApi(message),
        chat_instance: `-${Math.abs(message.chatId)}77`,
        data: button.callback_data,
      },
    } as Update;
    return { ...this.emit(update, options), callbackId: id };
  }

  /** Messages the bot sent to a chat (not deleted), oldest first. */
  botMessages(chatId: number): FakeMessage[] {
    return this.state.messagesIn(chatId).filter((m) => m.fromBot);
  }

  /** Every message of a chat (users' and the bot's), oldest first. */
  messages(chatId: number): FakeMessage[] {
    return this.state.messagesIn(chatId);
  }

  private record(
    from: User,
    chat: Chat,
    text: string,
    entities: MessageEntity[],
    options: ActionOptions,
  ): FakeMessage {
    if (chat.type === 'private') this.state.started.add(from.id);
    return this.state.addMessage(chat.id, {
      from,
      fromBot: false,
      text,
      entities: entities.map((e) => ({ type: e.type, offset: e.offset, length: e.length })),
      ...(options.replyTo ? { replyTo: options.replyTo } : {}),
      ...(options.threadId ? { threadId: options.threadId } : {}),
      versions: [],
      deleted: false,
    });
  }

  private emit(update: Update, options: ActionOptions, message?: FakeMessage) {
    const numbered = { ...update, update_id: this.nextUpdateId++ } as Update;
    if (options.deliver !== false) this.enqueue(numbered);
    return { update: numbered, ...(message ? { message } : {}) };
  }
}
