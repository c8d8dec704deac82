/**
 * Link unfurls on Discord (gateway mode): a message that mentions the bot with a tool link is
 * answered with the tool's status card in the channel, once per channel within the window; the same
 * link without the mention arrives empty (no Message Content intent) and is left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnfurlCard } from '../../src/core/unfurls';
import { type DiscordHarness, startDiscordHarness } from '../fakes/discord/harness';
import { waitFor } from '../support/wait';

let h: DiscordHarness;
const finished: UnfurlCard[][] = [];

beforeAll(async () => {
  h = await startDiscordHarness({
    prepare(app) {
      const unfurl = app.unfurl.bind(app);
      app.unfurl = async (seen) => {
        const cards = await unfurl(seen);
        finished.push(cards);
        return cards;
      };
    },
  });
});
afterAll(async () => {
  await h?.close();
});

const shownText = (m: { content: string; embeds: Record<string, unknown>[] }) =>
  `${m.content}\n${JSON.stringify(m.embeds)}`;

describe('Discord link unfurls', () => {
  it("answers a mention with a tool link with the tool's status card, once within 30 minutes", async () => {
    const { fake, strangerId, adminId } = h;
    const cards = (tool: string) =>
      fake.channelMessages().filter((m) => m.via === 'bot' && shownText(m).includes(`Status of ${tool}`));

    fake.userMessage(strangerId, 'look at https://mytool.toolforge.org/ please');
    fake.userMessage(strangerId, 'https://mytool.toolforge.org/', { mention: true });
    await waitFor(() => (cards('mytool').length > 0 ? true : undefined));
    // The unmentioned message reached Deckhand without its content: nothing was looked at for it.
    expect(finished).toHaveLength(1);

    fake.userMessage(adminId, 'same https://toolsadmin.wikimedia.org/tools/id/mytool', { mention: true });
    fake.userMessage(adminId, 'and https://demo.toolforge.org', { mention: true });
    await waitFor(() => (finished.length === 3 && cards('demo').length > 0 ? true : undefined));
    expect(finished.flat().map((c) => c.link)).toEqual(
      expect.arrayContaining(['https://mytool.toolforge.org/', 'https://demo.toolforge.org']),
    );
    expect(finished.flat()).toHaveLength(2);
    expect(cards('mytool')).toHaveLength(1);
    expect(fake.violations).toEqual([]);
  });
});
