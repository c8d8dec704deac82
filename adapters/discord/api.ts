/**
 * The Discord REST calls Deckhand makes, through discord.js's REST client (its rate-limit buckets
 * and 429 handling: a 429 waits `retry_after` and retries, so nothing is lost). Interaction
 * callbacks and webhook edits use the interaction token (no bot authorization); channel messages
 * use the bot token, which keeps working for hours and from any process.
 */
import {
  type APIInteractionResponse,
  type APIMessage,
  DiscordAPIError,
  type REST,
  type RESTPutAPIApplicationCommandsJSONBody,
  type RESTPutAPIApplicationCommandsResult,
  Routes,
} from 'discord.js';
import type { RenderedMessage } from './render';

/**
 * Discord JSON error codes meaning the bot cannot post (or edit) there any more: 10003 Unknown
 * Channel, 10008 Unknown Message (an edit of a deleted card), 50001 Missing Access, 50007 Cannot send
 * messages to this user, 50013 Missing Permissions (discord-api-types 0.38, rest/common.d.ts,
 * `RESTJSONErrorCodes`); discord.js throws them as `DiscordAPIError.code`.
 */
export const GONE_CODES = new Set([10003, 10008, 50001, 50007, 50013]);

/** True for a Discord error saying the channel or message is gone or off-limits to the bot. */
export function isGone(error: unknown): error is DiscordAPIError {
  return error instanceof DiscordAPIError && typeof error.code === 'number' && GONE_CODES.has(error.code);
}

/** Typed wrappers over the REST routes Deckhand uses. */
export class DiscordApi {
  constructor(
    readonly rest: REST,
    readonly applicationId: string,
  ) {}

  /**
   * Posts a message in a channel with the bot token; with `once`, Discord returns the message created
   * earlier with the same nonce (within a few minutes) instead of creating another one.
   */
  async createMessage(
    channelId: string,
    message: RenderedMessage,
    once?: { nonce: string; enforce_nonce: true },
  ): Promise<APIMessage> {
    return (await this.rest.post(Routes.channelMessages(channelId), {
      body: once ? { ...message.body, ...once } : message.body,
      files: message.files,
    })) as APIMessage;
  }

  /**
   * The bot's DM channel with a user (`POST /users/@me/channels`; Discord returns the existing one
   * when there is one).
   */
  async openDm(userId: string): Promise<string> {
    const channel = (await this.rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as {
      id: string;
    };
    return channel.id;
  }

  /** Edits a message the bot posted (attachments are replaced by the new ones). */
  async editMessage(channelId: string, messageId: string, message: RenderedMessage): Promise<void> {
    const { flags: _flags, ...body } = message.body;
    await this.rest.patch(Routes.channelMessage(channelId, messageId), { body, files: message.files });
  }

  /** The first answer to an interaction (gateway mode; HTTP mode answers in the response body). */
  async callback(interactionId: string, token: string, response: APIInteractionResponse): Promise<void> {
    await this.rest.post(Routes.interactionCallback(interactionId, token), { body: response, auth: false });
  }

  /** Edits an interaction reply (`@original` or a follow-up) with the interaction token. */
  async editReply(token: string, messageId: string, message: RenderedMessage): Promise<APIMessage> {
    const { flags: _flags, ...body } = message.body;
    return (await this.rest.patch(Routes.webhookMessage(this.applicationId, token, messageId), {
      body,
      files: message.files,
      auth: false,
    })) as APIMessage;
  }

  /** Removes the buttons of an interaction's `@original` message (a used ephemeral confirmation). */
  async clearButtons(token: string): Promise<void> {
    await this.rest.patch(Routes.webhookMessage(this.applicationId, token, '@original'), {
      body: { components: [], allowed_mentions: { parse: [] } },
      auth: false,
    });
  }

  /** Sends a follow-up message to an interaction (flags 64 = only the user sees it). */
  async followUp(token: string, message: RenderedMessage): Promise<APIMessage> {
    return (await this.rest.post(Routes.webhook(this.applicationId, token), {
      body: message.body,
      files: message.files,
      query: new URLSearchParams({ wait: 'true' }),
      auth: false,
    })) as APIMessage;
  }

  /** Deletes an interaction reply. */
  async deleteReply(token: string, messageId = '@original'): Promise<void> {
    await this.rest.delete(Routes.webhookMessage(this.applicationId, token, messageId), { auth: false });
  }

  /** Replaces the application's commands, globally or in one guild (bulk overwrite). */
  async putCommands(
    commands: RESTPutAPIApplicationCommandsJSONBody,
    guildId?: string,
  ): Promise<RESTPutAPIApplicationCommandsResult> {
    const route = guildId
      ? Routes.applicationGuildCommands(this.applicationId, guildId)
      : Routes.applicationCommands(this.applicationId);
    return (await this.rest.put(route, { body: commands })) as RESTPutAPIApplicationCommandsResult;
  }
}
