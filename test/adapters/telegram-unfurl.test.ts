/**
 * Link unfurls on Telegram: a group message that mentions the bot with a tool link is answered with
 * the tool's status card, once per chat within the window; the same link without the mention is
 * left alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let deckhand: TelegramDeckhand;

useStarted(startTelegramDeckhand, (started) => {
  deckhand = started;
});
afterEach(() => {
  deckhand.fake.assertClean();
});

describe('Telegram link unfurls', () => {
  it("answers @bot with a tool link with the tool's status card, once within 30 minutes", async () => {
    const { fake, users } = deckhand;
    const group = fake.group('unfurls');
    fake.sendText(users.stranger, group, 'look at https://mytool.toolforge.org/ please');
    fake.sendText(users.stranger, group, '@deckhand_bot https://mytool.toolforge.org/');
    const card = await waitFor(() => fake.botMessages(group.id).find((m) => m.text.includes('mytool')));
    expect(card.text).toMatch(/Platform|Build|Deployment|Jobs/);
    fake.sendText(users.admin, group, '@deckhand_bot https://toolsadmin.wikimedia.org/tools/id/mytool');
    // A command after it is answered: everything before it was handled.
    fake.sendText(users.admin, group, '/tool@deckhand_bot status mytool');
    const cards = () => fake.botMessages(group.id).filter((m) => m.text.includes('Status of mytool'));
    await waitFor(() => (cards().length >= 2 ? cards() : undefined));
    expect(cards()).toHaveLength(2);
    expect(fake.botMessages(group.id).some((m) => m.replyTo === card.replyTo && m !== card)).toBe(false);
  });
});
