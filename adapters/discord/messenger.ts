/**
 * Posts and edits Deckhand's cards as the bot's own channel messages (bot token), so a card that
 * keeps changing (a deployment, a tail) can be edited for hours and from any process; and edits
 * interaction replies (ephemeral cards) through their interaction token while it lives (15 min).
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { ChatUser, MessageHandle } from '../../src/core/command';
import { conversationId, parseConversationId } from '../../src/core/conversation';
import { ConversationGoneError } from '../../src/core/errors';
import type { Messenger } from '../../src/core/messenger';
import type { Card } from '../../src/core/reply';
import { type DiscordApi, isGone } from './api';
import { renderCard } from './render';

/** `ref` of a channel message handle. */
export interface ChannelMessageRef extends Record<string, string> {
  kind: 'channel';
  channel: string;
  message: string;
}

/** `ref` of an interaction reply handle (usable while the interaction token lives). */
export interface InteractionReplyRef extends Record<string, string> {
  kind: 'interaction';
  token: string;
  message: string;
}

/** The Discord messenger: registered with the core for workers and watchers. */
export class DiscordMessenger implements Messenger {
  constructor(
    private readonly api: DiscordApi,
    private readonly logger: Logger,
  ) {}

  /**
   * Posts a card in a conversation with the bot token. A card with a delivery key (an announcement a
   * queued job may retry) is sent with that key as `nonce` and `enforce_nonce: true`, so a retry of a
   * post that reached Discord gets the first message back instead of creating a second one. `author` (who asked) is shown on the card and
   * kept on the handle so later edits show it too. Private cards need an interaction (ephemeral
   * reply) and are refused here.
   */
  async post(conversationId: string, card: Card, options: { author?: string } = {}): Promise<MessageHandle> {
    if (card.visibility === 'private') {
      throw new Error('a private card can only be shown as an interaction reply, not posted in a channel');
    }
    const channel = channelOf(conversationId);
    const author = options.author;
    try {
      const rendered = renderCard(card, author ? { author } : {});
      const message = await this.api.createMessage(
        channel,
        rendered,
        card.delivery ? nonceOf(card.delivery.key) : undefined,
      );
      return {
        platform: 'discord',
        conversationId,
        ref: { kind: 'channel', channel, message: message.id, ...(author ? { by: author } : {}) },
      };
    } catch (error) {
      throw this.translate(error, conversationId);
    }
  }

  /** The bot's DM channel with a user (opened, or the existing one), as a conversation id. */
  async openDirect(user: ChatUser): Promise<string> {
    try {
      const channel = await this.api.openDm(user.id);
      return conversationId({ platform: 'discord', workspace: '@me', channel });
    } catch (error) {
      throw this.translate(error, `discord:@me:@${user.id}`);
    }
  }

  /** The message's link (`https://discord.com/channels/<server or @me>/<channel>/<message>`). */
  async linkTo(handle: MessageHandle): Promise<string | undefined> {
    const { kind, channel, message } = handle.ref;
    if (kind !== 'channel' || !channel || !message) return undefined;
    const server = parseConversationId(handle.conversationId).workspace || '@me';
    return `https://discord.com/channels/${server}/${channel}/${message}`;
  }

  /** Edits a posted card, by its handle alone. */
  async update(handle: MessageHandle, card: Card): Promise<void> {
    const ref = handle.ref;
    try {
      if (ref.kind === 'interaction' && ref.token && ref.message) {
        await this.api.editReply(ref.token, ref.message, renderCard(card));
        return;
      }
      if (!ref.channel || !ref.message)
        throw new Error(`not a Discord message handle: ${JSON.stringify(ref)}`);
      const by = ref.by;
      await this.api.editMessage(ref.channel, ref.message, renderCard(card, by ? { author: by } : {}));
    } catch (error) {
      throw this.translate(error, handle.conversationId);
    }
  }

  private translate(error: unknown, conversationId: string): unknown {
    if (isGone(error)) {
      this.logger.info({ conversationId, code: error.code }, 'discord conversation is gone');
      return new ConversationGoneError(conversationId, error.message);
    }
    return error;
  }
}

/**
 * The `nonce` of a delivery key: Discord takes a string of at most 25 characters, so the key is hashed
 * (25 base64url characters, 150 bits). With `enforce_nonce`, Discord checks the nonce "for uniqueness
 * in the past few minutes. If another message was created by the same author with the same nonce, that
 * message will be returned and no new message will be created" (discord/discord-api-docs,
 * developers/resources/message.mdx, Create Message, commit a1a297f4; `nonce` is `maxLength: 25` in
 * specs/platforms/discord-openapi.json, MessageCreateRequest).
 */
export function nonceOf(key: string): { nonce: string; enforce_nonce: true } {
  return {
    nonce: createHash('sha256').update(key).digest('base64url').slice(0, 25),
    enforce_nonce: true,
  };
}

/** The channel (or thread) id of a Discord conversation id. */
export function channelOf(conversationId: string): string {
  const ref = parseConversationId(conversationId);
  if (ref.platform !== 'discord') throw new Error(`not a Discord conversation: ${conversationId}`);
  return ref.thread ?? ref.channel;
}
