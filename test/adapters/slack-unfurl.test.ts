import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { waitFor } from '../support/wait';

let bot: SlackBot;

beforeAll(async () => {
  bot = await startSlackBot();
});

afterAll(async () => {
  await bot?.close();
});

function linkShared(channel: string, ts: string, urls: string[]) {
  return bot.driver.eventBody({
    type: 'link_shared',
    channel,
    user: USERS.stranger.id,
    message_ts: ts,
    unfurl_id: `U${ts}`,
    source: 'conversations_history',
    is_bot_user_member: true,
    links: urls.map((url) => ({ url, domain: new URL(url).hostname })),
  });
}

/** Every text of a Block Kit attachment, joined. */
function textOf(value: unknown): string {
  return JSON.stringify(value).replace(/\\n/g, '\n');
}

describe('link unfurls on Slack', () => {
  it("shows a tool page's link as the tool's status card (chat.unfurl), once within 30 minutes", async () => {
    const url = 'https://mytool.toolforge.org/wiki/page?x=1';
    await bot.driver.event(linkShared('C0UNFURL', '1700000000.000100', [url]));
    const call = await waitFor(() => bot.fake.unfurls.find((u) => u.ts === '1700000000.000100'));
    expect(call.channel).toBe('C0UNFURL');
    expect(Object.keys(call.unfurls)).toEqual([url]);
    const shown = textOf(call.unfurls[url]);
    expect(shown).toContain('mytool');
    expect(shown).toMatch(/Platform|Build|Deployment|Jobs/);
    // The same tool again (another message, the admin page) in the same channel: nothing.
    await bot.driver.event(
      linkShared('C0UNFURL', '1700000000.000200', ['https://toolsadmin.wikimedia.org/tools/id/mytool']),
    );
    // Another channel is another conversation: shown there.
    await bot.driver.event(linkShared('C0OTHER', '1700000000.000300', [url]));
    await waitFor(() => bot.fake.unfurls.find((u) => u.channel === 'C0OTHER'));
    await bot.settled();
    expect(bot.fake.unfurls.filter((u) => u.channel === 'C0UNFURL')).toHaveLength(1);
    expect(bot.fake.channelMessages('C0UNFURL')).toEqual([]);
  });

  it('shows nothing for links Deckhand does not know, nor for a tool that does not exist', async () => {
    await bot.driver.event(
      linkShared('C0NONE', '1700000000.000400', [
        'https://example.toolforge.org.evil.example/x',
        'https://no-such-tool-here.toolforge.org/',
      ]),
    );
    await bot.settled();
    expect(bot.fake.unfurls.filter((u) => u.channel === 'C0NONE')).toEqual([]);
    expect(bot.fake.channelMessages('C0NONE')).toEqual([]);
  });
});
