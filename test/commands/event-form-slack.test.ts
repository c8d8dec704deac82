/** /event new on Slack (the fake Web API and the real Bolt adapter): a modal whose submission creates the event. */

import type { CalendarSandbox } from '@deckhand/sandbox/calendar';
import { describe, expect, it } from 'vitest';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';

let bot: SlackBot;

useFakePlatform(startSlackBot, (started) => {
  bot = started;
});

const calendar = () => bot.app.emulators.calendar as CalendarSandbox;

describe('/event new on Slack', () => {
  it('opens a modal with the event fields and the site’s choices; submitting it posts the event card', async () => {
    await bot.driver.command(USERS.admin, 'C0CAL', '/event new');
    const opened = await waitFor(() => bot.fake.views[0]);
    const blocks = opened.view.blocks as {
      type: string;
      label?: { text: string };
      text?: { text: string };
    }[];
    expect(blocks.filter((b) => b.type === 'input').map((b) => b.label?.text)).toEqual([
      'Title',
      'Starts',
      'Ends (default: an hour later)',
      'Venue',
      'Organizer',
      'Category',
      'Description',
    ]);
    expect(JSON.stringify(blocks)).toContain('Venues: Community Room, Main Hall, Studio.');

    const submitted = await bot.driver.submit(USERS.admin, opened, {
      Title: 'Slack social',
      Starts: '2026-12-15 18:30',
      Venue: 'Main Hall',
      Category: 'Meetup',
    });
    expect(submitted.status).toBe(200);
    const card = await waitFor(() =>
      bot.fake
        .channelMessages('C0CAL')
        .map((m) => JSON.stringify(m.attachments))
        .find((text) => text.includes('Slack social')),
    );
    expect(card).toContain('Tue 15 Dec 2026, 18:30–19:30 (Europe/Berlin)');
    expect(card).toContain('/event/slack-social/');
    const created = calendar()
      .state.postsOf('event')
      .find((e) => e.title === 'Slack social');
    expect(created).toMatchObject({ venues: [10], status: 'publish' });
  });

  it('answers a bad date in the modal with a message and creates nothing', async () => {
    await bot.driver.command(USERS.admin, 'C0CAL2', '/event new');
    const opened = await waitFor(() => bot.fake.views[1]);
    await bot.driver.submit(USERS.admin, opened, { Title: 'Slack never', Starts: 'next-ish' });
    await waitFor(() =>
      [
        ...bot.fake.channelMessages('C0CAL2'),
        ...bot.fake.ephemerals.map((e) => ({ attachments: e.body.attachments })),
      ]
        .map((m) => JSON.stringify(m.attachments))
        .find((text) => text.includes('is not a date')),
    );
    await bot.settled();
    expect(
      calendar()
        .state.postsOf('event')
        .some((e) => e.title === 'Slack never'),
    ).toBe(false);
  });
});
