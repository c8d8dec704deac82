import type { webApi } from '@slack/bolt';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ChatUser, MessageHandle } from '../../src/core/command';
import type { ConfirmDialogs } from '../../src/core/confirm-dialogs';
import { conversationId, parseConversationId } from '../../src/core/conversation';
import { ConversationGoneError, RateLimitedError } from '../../src/core/errors';
import type { Messenger } from '../../src/core/messenger';
import type { Card, DeliveryKey } from '../../src/core/reply';
import type { MessageKey } from '../../src/i18n/translate';
import type { SlackClients } from './clients';
import { type UploadsInFlight, uploadCardFiles } from './files';
import { renderCard, type SlackMessage } from './render';
import { postToResponseUrl } from './response-url';

/** Where a reply goes: a workspace, a channel (and thread), for a user. */
export interface SlackPlace {
  teamId: string;
  channel: string;
  thread?: string;
  userId: string;
  /** The conversation is the user's DM with the bot: everything posted there is private. */
  isPrivate: boolean;
  /** `response_url` of the interaction, for places the bot cannot post to itself. */
  responseUrl?: string;
}

/** `event_type` of the metadata that carries a delivery key (see {@link SlackMessenger.post}). */
export const DELIVERY_EVENT_TYPE = 'deckhand_event';

/** How far before an interrupted attempt's start its message is looked for (clock differences). */
const LOOKUP_MARGIN_MS = 60_000;

/** At most this many history pages (of 200 messages) are read in a very busy channel. */
const LOOKUP_PAGES = 10;

/** Web API errors that mean "the bot cannot post here" (not in the channel, a DM of two people). */
const CANNOT_POST = new Set(['not_in_channel', 'channel_not_found', 'user_not_in_channel', 'is_archived']);

/**
 * Web API errors that mean the bot can no longer post in a conversation at all (it was removed, the
 * channel was deleted or archived, the bot user was deactivated): every one is listed for
 * `chat.postMessage` in specs/platforms/slack-web-openapi.json (`/api/chat.postMessage`, errors
 * `not_in_channel`, `channel_not_found`, `is_archived`, `account_inactive`). @slack/web-api throws
 * them as a `WebAPIPlatformError` whose `data.error` is the code (@slack/web-api 8.2.0,
 * dist/errors.js, `platformErrorFromResult`).
 */
const GONE: ReadonlyMap<string, MessageKey> = new Map([
  ['channel_not_found', 'slack-gone-channel-not-found'],
  ['not_in_channel', 'slack-gone-not-in-channel'],
  ['is_archived', 'slack-gone-archived'],
  ['account_inactive', 'slack-gone-account-inactive'],
]);

/** The Slack error code of a failed Web API call, if it is one. */
export function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/** The conversation id of a place. */
export function placeId(place: SlackPlace): string {
  return conversationId({
    platform: 'slack',
    workspace: place.teamId,
    channel: place.channel,
    ...(place.thread ? { thread: place.thread } : {}),
  });
}

/**
 * Posts and edits Slack messages from a conversation id or a stored handle alone, so a worker in
 * another process can keep a card up to date. Handles are `{channel, ts}` for channel messages,
 * `{channel, responseUrl}` for messages posted through an interaction's `response_url`, and
 * `{channel, user, ephemeral}` for ephemeral ones.
 */
export class SlackMessenger implements Messenger {
  /** Card files this process is uploading right now. */
  private readonly uploadsInFlight: UploadsInFlight = new Set();

  constructor(
    private readonly deps: {
      clients: SlackClients;
      redis: Redis;
      prefix: string;
      logger: Logger;
      /** The core's confirm dialogs, rendered as Slack's (default: one on every danger button). */
      dialogs?: ConfirmDialogs;
      fetch?: typeof fetch;
    },
  ) {}

  /** Renders a card with the confirm dialogs the core decided on. */
  async render(card: Card): Promise<SlackMessage> {
    return this.deps.dialogs ? renderCard(card, await this.deps.dialogs(card)) : renderCard(card);
  }

  /**
   * Posts a card in a conversation (`chat.postMessage`), in its thread when it has one. A card with a
   * delivery key carries it as message metadata; when an earlier attempt may have reached Slack
   * (`delivery.since`), the message carrying that key is looked up first and returned if found.
   */
  async post(id: string, card: Card): Promise<MessageHandle> {
    try {
      return await this.postMessage(id, card);
    } catch (error) {
      throw this.translate(error, id);
    }
  }

  /**
   * The bot's direct conversation with a user: `conversations.open` with their user id, which
   * opens it or returns the one that exists (docs.slack.dev/reference/methods/conversations.open);
   * remembered for a week.
   */
  async openDirect(user: ChatUser): Promise<string> {
    try {
      const channel = await this.directChannel(user.workspace, user.id);
      return conversationId({ platform: 'slack', workspace: user.workspace, channel });
    } catch (error) {
      throw this.translate(error, `slack:${user.workspace}:@${user.id}`);
    }
  }

  /** The message's permalink (`chat.getPermalink`); undefined for a message without a `ts`. */
  async linkTo(handle: MessageHandle): Promise<string | undefined> {
    const { channel, ts, ephemeral } = handle.ref;
    if (!channel || !ts || ephemeral) return undefined;
    const { client } = await this.deps.clients.forTeam(parseConversationId(handle.conversationId).workspace);
    const answer = await client.chat.getPermalink({ channel, message_ts: ts });
    return typeof answer.permalink === 'string' ? answer.permalink : undefined;
  }

  /** Posts a card in the thread of a posted message (`thread_ts` = the parent's `ts`). */
  async postInThread(parent: MessageHandle, card: Card): Promise<MessageHandle> {
    const ref = parseConversationId(parent.conversationId);
    const thread = ref.thread ?? parent.ref.ts;
    return this.post(conversationId({ ...ref, ...(thread ? { thread } : {}) }), card);
  }

  /** {@link post} without the translation: the raw Web API error, for the fallbacks below. */
  private async postMessage(id: string, card: Card): Promise<MessageHandle> {
    const ref = parseConversationId(id);
    const delivery = card.delivery;
    const { client } = await this.deps.clients.forTeam(ref.workspace, {
      purpose: delivery?.announcement === true ? 'announce' : 'reply',
    });
    if (delivery?.since !== undefined) {
      const ts = await this.findDelivered(client, ref.channel, ref.thread, delivery);
      if (ts) {
        // The files of a card are recorded per message, so only those not uploaded yet are sent.
        const message = await this.render(card);
        await this.upload(client, ref.channel, ref.thread ?? ts, `${ref.channel}:${ts}`, message);
        return { platform: 'slack', conversationId: id, ref: { channel: ref.channel, ts } };
      }
    }
    const message = await this.render(card);
    const posted = await client.chat.postMessage({
      channel: ref.channel,
      ...(ref.thread ? { thread_ts: ref.thread } : {}),
      attachments: message.attachments,
      unfurl_links: false,
      unfurl_media: false,
      ...(delivery
        ? { metadata: { event_type: DELIVERY_EVENT_TYPE, event_payload: { key: delivery.key } } }
        : {}),
    });
    const ts = posted.ts as string;
    const channel = (posted.channel as string | undefined) ?? ref.channel;
    await this.upload(client, channel, ref.thread ?? ts, `${channel}:${ts}`, message);
    return { platform: 'slack', conversationId: id, ref: { channel, ts } };
  }

  /** Edits a posted card: `chat.update`, or the `response_url` it was posted through. */
  async update(handle: MessageHandle, card: Card): Promise<void> {
    const { channel, ts, responseUrl, ephemeral, user } = handle.ref;
    const ref = parseConversationId(handle.conversationId);
    const message = await this.render(card);
    if (ts && channel && !ephemeral) {
      const { client } = await this.deps.clients.forTeam(ref.workspace);
      try {
        await client.chat.update({ channel, ts, attachments: message.attachments });
      } catch (error) {
        throw this.translate(error, handle.conversationId);
      }
      await this.upload(client, channel, ref.thread ?? ts, `${channel}:${ts}`, message);
      return;
    }
    if (responseUrl) {
      await postToResponseUrl(responseUrl, message, 'replace', this.deps.fetch);
      return;
    }
    if (ephemeral && channel && user) {
      await this.postEphemeral(
        { teamId: ref.workspace, channel, userId: user, isPrivate: false, ...threadOf(ref.thread) },
        card,
      );
      return;
    }
    throw new Error('this Slack message handle cannot be updated');
  }

  /**
   * Posts a card publicly in a place; where the bot cannot post (not a member, a DM between two
   * people) it answers through the interaction's `response_url` instead.
   */
  async postPublic(place: SlackPlace, card: Card): Promise<MessageHandle> {
    try {
      return await this.postMessage(placeId(place), card);
    } catch (error) {
      const code = slackErrorCode(error);
      if (!place.responseUrl || !code || !CANNOT_POST.has(code)) throw error;
      await postToResponseUrl(place.responseUrl, await this.render(card), 'in_channel', this.deps.fetch);
      return {
        platform: 'slack',
        conversationId: placeId(place),
        ref: { channel: place.channel, responseUrl: place.responseUrl },
      };
    }
  }

  /**
   * Shows a card to one user only: `chat.postEphemeral`; where that is refused, the interaction's
   * `response_url` (ephemeral), and failing both, the user's DM with the bot. Files go to the DM.
   */
  async postEphemeral(place: SlackPlace, card: Card): Promise<MessageHandle> {
    const { client } = await this.deps.clients.forTeam(place.teamId);
    const message = await this.render(card);
    const handle: MessageHandle = {
      platform: 'slack',
      conversationId: placeId(place),
      ref: {
        channel: place.channel,
        user: place.userId,
        ephemeral: '1',
        ...(place.responseUrl ? { responseUrl: place.responseUrl } : {}),
      },
    };
    try {
      await client.chat.postEphemeral({
        channel: place.channel,
        user: place.userId,
        ...(place.thread ? { thread_ts: place.thread } : {}),
        attachments: message.attachments,
      });
    } catch (error) {
      const code = slackErrorCode(error);
      if (!code || !CANNOT_POST.has(code)) throw error;
      if (place.responseUrl) {
        await postToResponseUrl(place.responseUrl, message, 'ephemeral', this.deps.fetch);
      } else {
        return this.postDirect(place.teamId, place.userId, card);
      }
    }
    if (message.files.length > 0) {
      const dm = await this.directChannel(place.teamId, place.userId);
      await this.upload(client, dm, undefined, `${dm}:${handle.conversationId}`, message);
    }
    return handle;
  }

  /** Posts a card in the user's DM with the bot. */
  async postDirect(teamId: string, userId: string, card: Card): Promise<MessageHandle> {
    const channel = await this.directChannel(teamId, userId);
    return this.postMessage(conversationId({ platform: 'slack', workspace: teamId, channel }), card);
  }

  /** A conversation the bot can no longer post in becomes the core's {@link ConversationGoneError}. */
  private translate(error: unknown, id: string): unknown {
    // @slack/web-api's WebAPIRateLimitedError (dist/errors.js): `retryAfter` in seconds.
    const limited = error as { code?: unknown; retryAfter?: unknown } | undefined;
    if (limited?.code === 'slack_webapi_rate_limited_error' && typeof limited.retryAfter === 'number') {
      return new RateLimitedError(id, limited.retryAfter * 1000);
    }
    const code = slackErrorCode(error);
    const reason = code ? GONE.get(code) : undefined;
    if (!reason) return error;
    this.deps.logger.info({ conversationId: id, code }, 'slack conversation is gone');
    return new ConversationGoneError(id, (say) => `${say.t(reason)} (${code})`);
  }

  /** The id of the user's DM with the bot (`conversations.open`, remembered in Redis). */
  async directChannel(teamId: string, userId: string): Promise<string> {
    const key = `${this.deps.prefix}slack:dm:${teamId}:${userId}`;
    const known = await this.deps.redis.get(key);
    if (known) return known;
    const { client } = await this.deps.clients.forTeam(teamId);
    const opened = await client.conversations.open({ users: userId });
    const channel = opened.channel?.id;
    if (!channel) throw new Error('Slack did not open a DM channel');
    await this.deps.redis.set(key, channel, 'EX', 7 * 24 * 3600);
    return channel;
  }

  /**
   * The `ts` of the bot's message carrying a delivery key, posted since shortly before `since`: the
   * channel's history (or the thread's replies) with `include_all_metadata`, newest first, page by page
   * back to that time. A lookup Slack refuses (a missing `channels:history` scope) is logged and
   * treated as not found: the card is posted again rather than lost.
   */
  private async findDelivered(
    client: webApi.WebClient,
    channel: string,
    thread: string | undefined,
    delivery: DeliveryKey,
  ): Promise<string | undefined> {
    const oldest = ((Number(delivery.since) - LOOKUP_MARGIN_MS) / 1000).toFixed(6);
    let cursor: string | undefined;
    try {
      for (let page = 0; page < LOOKUP_PAGES; page += 1) {
        const args = {
          channel,
          oldest,
          limit: 200,
          include_all_metadata: true,
          ...(cursor ? { cursor } : {}),
        };
        const answer = thread
          ? await client.conversations.replies({ ...args, ts: thread })
          : await client.conversations.history(args);
        const found = (answer.messages ?? []).find(
          (m) =>
            m.metadata?.event_type === DELIVERY_EVENT_TYPE &&
            (m.metadata.event_payload as { key?: unknown } | undefined)?.key === delivery.key,
        );
        if (found?.ts) return found.ts;
        cursor = answer.response_metadata?.next_cursor || undefined;
        if (!answer.has_more || !cursor) return undefined;
      }
    } catch (error) {
      this.deps.logger.warn(
        { channel, error: slackErrorCode(error) ?? String(error) },
        'could not look for an interrupted post in the Slack history; posting it again',
      );
    }
    return undefined;
  }

  private async upload(
    client: webApi.WebClient,
    channel: string,
    thread: string | undefined,
    messageKey: string,
    message: SlackMessage,
  ): Promise<void> {
    if (message.files.length === 0) return;
    try {
      await uploadCardFiles({
        client,
        redis: this.deps.redis,
        prefix: this.deps.prefix,
        channel,
        ...(thread ? { thread } : {}),
        messageKey,
        files: message.files,
        inFlight: this.uploadsInFlight,
      });
    } catch (error) {
      this.deps.logger.warn({ err: error, channel }, 'could not attach files to a Slack message');
    }
  }
}

function threadOf(thread: string | undefined): { thread?: string } {
  return thread ? { thread } : {};
}
