/** A Slack form (its buttons, its secret hint) is drawn in the person's Slack language. */
import { afterEach, describe, expect, it } from 'vitest';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { useWithToolhostClient } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let bot: SlackBot;

useWithToolhostClient(
  () => startSlackBot(),
  (started) => {
    bot = started;
  },
);
afterEach(() => {
  expect(bot.fake.violations).toEqual([]);
});

describe('a Slack form in the reader’s Slack language', () => {
  it('opens the modal with German buttons for a person whose Slack is German', async () => {
    bot.fake.locales.set(USERS.maintainer.id, 'de-DE');
    const delivery = await bot.driver.command(USERS.maintainer, 'C0ENV', '/envvars set mytool API_TOKEN');
    expect(delivery.status).toBe(200);
    const opened = await waitFor(() => bot.fake.views[0]);
    const view = JSON.stringify(opened.view);
    expect(view).toContain('"Abbrechen"');
    expect(view).toContain('Nur Deckhand sieht das');
    expect(view).not.toContain('"Cancel"');
  });
});
