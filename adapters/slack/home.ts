import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import type { AdapterHost } from '../../src/core/host';
import type { SlackClients } from './clients';
import type { InFlight } from './inflight';
import { placeId, type SlackMessenger } from './messenger';

/** What the `app_home_opened` listener needs. */
export interface HomeDeps {
  home: AdapterHost['home'];
  messenger: SlackMessenger;
  clients: SlackClients;
  inflight: InFlight;
  logger: Logger;
}

/** A Home tab holds at most 100 blocks. */
const MAX_HOME_BLOCKS = 100;

interface AppHomeOpened {
  user: string;
  channel: string;
  tab?: string;
}

/**
 * `app_home_opened` on the Home tab: the core's home view for the person who opened it (the cards
 * `/me` answers them with), drawn as Block Kit and published as their Home tab (`views.publish`).
 * Opening the Messages tab changes nothing. Publishing again replaces the tab, so a repeated event
 * only draws it afresh.
 */
export function onAppHomeOpened(app: App, deps: HomeDeps): void {
  app.event('app_home_opened', async ({ event, body, context }) => {
    const opened = event as unknown as AppHomeOpened;
    if (opened.tab !== 'home' || !opened.user) return;
    const teamId = context.teamId ?? (body as { team_id?: string }).team_id ?? '';
    deps.inflight.run('home', async () => {
      const place = { teamId, channel: opened.channel, userId: opened.user, isPrivate: true };
      const cards = await deps.home({
        user: { platform: 'slack', id: opened.user, name: opened.user, workspace: teamId },
        conversation: { platform: 'slack', workspace: teamId, channel: opened.channel },
        conversationId: placeId(place),
        isPrivate: true,
      });
      const blocks: unknown[] = [];
      for (const card of cards) {
        const message = await deps.messenger.render(card);
        if (blocks.length > 0) blocks.push({ type: 'divider' });
        blocks.push(...message.attachments.flatMap((a) => a.blocks ?? []));
      }
      const { client } = await deps.clients.forTeam(teamId);
      await client.views.publish({
        user_id: opened.user,
        view: { type: 'home', blocks: blocks.slice(0, MAX_HOME_BLOCKS) as never },
      });
    });
  });
}
