import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import type { AdapterHost } from '../../src/core/host';
import type { SlackClients } from './clients';
import type { InFlight } from './inflight';
import { placeId, type SlackMessenger } from './messenger';

/** What the `link_shared` listener needs. */
export interface UnfurlDeps {
  unfurl: AdapterHost['unfurl'];
  messenger: SlackMessenger;
  clients: SlackClients;
  inflight: InFlight;
  logger: Logger;
}

interface LinkShared {
  channel: string;
  user: string;
  message_ts: string;
  thread_ts?: string;
  source?: string;
  links?: { url?: string }[];
}

/**
 * `link_shared` (links of the app's unfurl domains, posted in a conversation): the core's cards for
 * the links it knows, as `chat.unfurl`'s attachments under their URLs. A composer preview (the
 * message is not sent yet) is left to Slack, so the link is shown when it is posted.
 */
export function onLinkShared(app: App, deps: UnfurlDeps): void {
  app.event('link_shared', async ({ event, body, context }) => {
    const shared = event as unknown as LinkShared;
    if (shared.source === 'composer' || !shared.user || !shared.links?.length) return;
    const teamId = context.teamId ?? (body as { team_id?: string }).team_id ?? '';
    deps.inflight.run('unfurl', async () => {
      const place = {
        teamId,
        channel: shared.channel,
        userId: shared.user,
        isPrivate: false,
        ...(shared.thread_ts ? { thread: shared.thread_ts } : {}),
      };
      const urls = shared.links?.map((link) => link.url ?? '').filter(Boolean) ?? [];
      const cards = await deps.unfurl({
        texts: urls,
        invocation: {
          user: { platform: 'slack', id: shared.user, name: shared.user, workspace: teamId },
          conversation: { platform: 'slack', workspace: teamId, channel: shared.channel },
          conversationId: placeId(place),
          isPrivate: false,
        },
      });
      if (cards.length === 0) return;
      const unfurls: Record<string, unknown> = {};
      for (const { link, card } of cards) {
        const [attachment] = (await deps.messenger.render(card)).attachments;
        if (attachment) unfurls[link] = { color: attachment.color, blocks: attachment.blocks };
      }
      const { client } = await deps.clients.forTeam(teamId);
      await client.chat.unfurl({ channel: shared.channel, ts: shared.message_ts, unfurls: unfurls as never });
    });
  });
}
