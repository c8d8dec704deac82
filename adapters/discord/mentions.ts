/**
 * Link unfurls on Discord (gateway mode): a message that mentions the bot and holds links Deckhand
 * knows is answered with their cards in the same channel. Without the privileged Message Content
 * intent Discord sends an app the content of a guild message only when the message mentions it (and
 * of DMs), so the GuildMessages and DirectMessages intents suffice: other chatter arrives empty and
 * is left alone. Commands stay slash commands; a mention is read for its links only.
 */
import type { GatewayMessageCreateDispatchData } from 'discord.js';
import type { Logger } from 'pino';
import { conversationId } from '../../src/core/conversation';
import type { AdapterHost } from '../../src/core/host';
import type { DiscordMessenger } from './messenger';

/** What {@link mentionUnfurls} uses. */
export interface MentionDeps {
  unfurl: AdapterHost['unfurl'];
  messenger: Pick<DiscordMessenger, 'post'>;
  logger: Logger;
}

/** Handles one MESSAGE_CREATE as the bot `botId` sees it. */
export function mentionUnfurls(deps: MentionDeps) {
  return async (message: GatewayMessageCreateDispatchData, botId: string | undefined): Promise<void> => {
    if (!botId || message.author.bot || !message.content) return;
    const direct = !message.guild_id;
    if (!direct && !message.mentions.some((user) => user.id === botId)) return;
    const workspace = message.guild_id ?? '@me';
    const conversation = { platform: 'discord' as const, workspace, channel: message.channel_id };
    const name = message.member?.nick ?? message.author.global_name ?? message.author.username;
    const where = conversationId(conversation);
    try {
      const cards = await deps.unfurl({
        texts: [message.content],
        invocation: {
          user: { platform: 'discord', id: message.author.id, name, workspace },
          conversation,
          conversationId: where,
          isPrivate: direct,
        },
      });
      for (const { card } of cards) await deps.messenger.post(where, card);
    } catch (error) {
      deps.logger.warn({ err: error, channel: message.channel_id }, 'discord: link unfurl failed');
    }
  };
}
