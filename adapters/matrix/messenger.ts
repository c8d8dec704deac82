/**
 * Posts and edits cards in Matrix rooms by conversation id and handle alone, so any process can keep
 * a card up to date. A card is an `m.notice` (bots' messages, which other bots do not answer); its
 * files and picture are uploaded to the media repository and follow it as `m.file`/`m.image`
 * messages (in its thread, when it is in one). An edit is an `m.replace` of the card; edits of one
 * card are coalesced — while one is being sent, later ones wait, and only the latest is sent.
 *
 * Events are sent with a transaction id: a retried request of the same transaction is the same
 * event (the homeserver answers with it). An announcement that may be retried
 * (`card.delivery.key`) uses a transaction id derived from that key, so a retry after a crash
 * cannot post it twice while the access token is the same.
 *
 * Rate limits: homeservers limit a sender across all its rooms (Synapse's `rc_message` is per user),
 * not per room, so a 429 pauses every post of the bot: the SDK's scheduler sends messages one after
 * another and waits out `retry_after_ms` before the next attempt. An announcement is therefore not
 * refused with the core's per-conversation `RateLimitedError`: another room would wait as long.
 */
import { createHash } from 'node:crypto';
import type { MatrixClient } from 'matrix-js-sdk';
import { MatrixError } from 'matrix-js-sdk';
import type { Logger } from 'pino';
import type { ChatUser, MessageHandle } from '../../src/core/command';
import { ConversationGoneError } from '../../src/core/errors';
import type { Messenger } from '../../src/core/messenger';
import type { Card } from '../../src/core/reply';
import { t } from '../../src/i18n/translate';
import type { CardButtons } from './buttons';
import { withRateLimit } from './client';
import { matrixConversationId, messageHandle, roomOf } from './ids';
import { type MessageContent, renderCard } from './render';
import type { BotRooms } from './rooms';

type Content = Record<string, unknown>;

/** A relation to a thread root (with the reply fallback for clients without threads). */
function inThread(root: string): Content {
  return { rel_type: 'm.thread', event_id: root, is_falling_back: true, 'm.in_reply_to': { event_id: root } };
}

/** True when the homeserver says the bot may not post in the room (it left, was kicked or banned). */
export function isRoomGone(error: unknown): error is MatrixError {
  return error instanceof MatrixError && error.httpStatus === 403 && error.errcode === 'M_FORBIDDEN';
}

/** The Matrix {@link Messenger}. */
export class MatrixMessenger implements Messenger {
  /** Per card: the edit being sent, and the latest card waiting behind it. */
  private readonly edits = new Map<
    string,
    { running: Promise<void>; next?: Card; waiting?: Promise<void> }
  >();

  constructor(
    private readonly client: MatrixClient,
    private readonly buttons: CardButtons,
    private readonly logger: Logger,
    /** Command mentions in the room's form (`/deploy` → `!deploy`). */
    private readonly words: (text: string) => string = (text) => text,
    /** The bot's direct rooms (for direct messages); none: no direct messages from this messenger. */
    private readonly rooms?: BotRooms,
  ) {}

  /**
   * The person's direct room with the bot: the one remembered, or a new one (`createRoom` with
   * `is_direct` and the person invited), as a conversation id.
   */
  async openDirect(user: ChatUser): Promise<string> {
    if (!this.rooms) throw new Error('direct rooms are not available in this messenger');
    return matrixConversationId(user.workspace, await this.rooms.directRoom(user.id));
  }

  /** The event's matrix.to link, which any client opens. */
  async linkTo(handle: MessageHandle): Promise<string | undefined> {
    const { room, message } = handle.ref;
    if (!room || !message) return undefined;
    return `https://matrix.to/#/${encodeURIComponent(room)}/${encodeURIComponent(message)}`;
  }

  async post(conversationId: string, card: Card): Promise<MessageHandle> {
    const { roomId, threadRoot } = roomOf(conversationId);
    return this.send(conversationId, roomId, card, threadRoot);
  }

  /** Posts a card in the thread of a posted message (`m.thread`). */
  async postInThread(parent: MessageHandle, card: Card): Promise<MessageHandle> {
    const root = parent.ref.thread ?? (parent.ref.message as string);
    return this.send(parent.conversationId, parent.ref.room as string, card, root);
  }

  /** Sends a card; `thread` puts it (and its files) in that thread. */
  async send(conversationId: string, roomId: string, card: Card, thread?: string): Promise<MessageHandle> {
    const rendered = renderCard(card, this.words);
    const relation = thread ? { 'm.relates_to': inThread(thread) } : {};
    const txn = card.delivery ? this.txnOf(card.delivery.key, roomId) : undefined;
    try {
      const { event_id } = await this.event(roomId, { ...rendered.content, ...relation }, txn);
      await this.buttons.remember(roomId, event_id, rendered.buttons);
      for (const file of rendered.attachments) {
        const data = Buffer.from(file.content, 'utf8');
        await this.attach(roomId, file.filename, relation, card.locale, () =>
          this.file(roomId, 'm.file', file.filename, data, 'text/plain', relation),
        );
      }
      const png = card.image?.pngBase64;
      const image = card.image;
      if (png && image) {
        const data = Buffer.from(png, 'base64');
        await this.attach(roomId, image.filename, relation, card.locale, () =>
          this.file(roomId, 'm.image', image.filename, data, 'image/png', relation, image),
        );
      }
      return messageHandle(conversationId, roomId, event_id, thread);
    } catch (error) {
      throw this.translate(error, conversationId);
    }
  }

  /** Edits a card in place (`m.replace`), coalesced per card: the latest state wins. */
  update(handle: MessageHandle, card: Card): Promise<void> {
    const key = `${handle.ref.room} ${handle.ref.message}`;
    const current = this.edits.get(key);
    if (current) {
      current.next = card;
      current.waiting ??= current.running.catch(() => undefined).then(() => this.drain(key, handle));
      return current.waiting;
    }
    const running = this.edit(handle, card).finally(() => {
      const entry = this.edits.get(key);
      if (entry && !entry.next) this.edits.delete(key);
    });
    this.edits.set(key, { running });
    return running;
  }

  /** Sends the latest waiting edit of a card. */
  private async drain(key: string, handle: MessageHandle): Promise<void> {
    const entry = this.edits.get(key);
    const card = entry?.next;
    this.edits.delete(key);
    if (card) await this.update(handle, card);
  }

  private async edit(handle: MessageHandle, card: Card): Promise<void> {
    const roomId = handle.ref.room as string;
    const target = handle.ref.message as string;
    const { content, buttons } = renderCard(card, this.words);
    const { 'm.mentions': mentions, ...shown } = content;
    const edit = {
      ...shown,
      body: `* ${content.body}`,
      formatted_body: `* ${content.formatted_body}`,
      'm.mentions': mentions,
      'm.new_content': content,
      'm.relates_to': { rel_type: 'm.replace', event_id: target },
    };
    try {
      await this.event(roomId, edit);
      await this.buttons.remember(roomId, target, buttons);
    } catch (error) {
      throw this.translate(error, handle.conversationId);
    }
  }

  /** Sends one event through the SDK's scheduler (which waits out 429s and retries the transaction). */
  private event(
    roomId: string,
    content: Content | MessageContent,
    txn?: string,
  ): Promise<{ event_id: string }> {
    return this.client.sendEvent(roomId, 'm.room.message' as never, content as never, txn);
  }

  /** Uploads bytes to the media repository and posts them as a file or image message. */
  private async file(
    roomId: string,
    msgtype: 'm.file' | 'm.image',
    name: string,
    data: Buffer,
    mimetype: string,
    relation: Content,
    image?: { alt: string; width?: number; height?: number },
  ): Promise<void> {
    const upload = await withRateLimit(() =>
      this.client.uploadContent(data, { name, type: mimetype, includeFilename: true }),
    );
    const size = image?.width && image.height ? { w: image.width, h: image.height } : {};
    await this.event(roomId, {
      msgtype,
      body: image?.alt ?? name,
      filename: name,
      url: upload.content_uri,
      info: { mimetype, size: data.length, ...size },
      'm.mentions': {},
      ...relation,
    });
  }

  /**
   * Sends one file of a posted card; when the media repository refuses it (too large, a quota), the
   * card stays posted and a short note says which file is missing and why.
   */
  private async attach(
    roomId: string,
    name: string,
    relation: Content,
    locale: string | undefined,
    send: () => Promise<void>,
  ): Promise<void> {
    try {
      await send();
    } catch (error) {
      if (isRoomGone(error as unknown) || !(error instanceof MatrixError)) throw error;
      this.logger.warn(
        { err: error, room: roomId, file: name },
        'matrix: a file of a card could not be sent',
      );
      const why =
        error.errcode === 'M_TOO_LARGE'
          ? t(locale, 'matrix-file-too-large')
          : (error.data.error ?? error.errcode);
      const text = t(locale, 'matrix-file-not-attached', name, String(why));
      await this.event(roomId, {
        ...renderCard({ text, status: 'warning', ...(locale ? { locale } : {}) }).content,
        ...relation,
      });
    }
  }

  /** A stable transaction id for a delivery key (≤ 64 characters of `[A-Za-z0-9_-]`). */
  private txnOf(key: string, roomId: string): string {
    return `dh-${createHash('sha256').update(`${roomId} ${key}`).digest('base64url').slice(0, 40)}`;
  }

  /** A room the bot may no longer post in becomes the core's {@link ConversationGoneError}. */
  private translate(error: unknown, conversationId: string): unknown {
    if (!isRoomGone(error)) return error;
    this.logger.info({ conversationId }, 'matrix room is gone');
    return new ConversationGoneError(conversationId, error.data.error ?? 'M_FORBIDDEN');
  }
}
