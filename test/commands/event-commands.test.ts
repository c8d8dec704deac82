/** /event create|show|update|cancel and /events through the real command runner, on the calendar sandbox. */

import type { CalendarSandbox } from '@deckhand/sandbox/calendar';
import type { EventPost } from '@deckhand/sandbox/calendar/state';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import { button, startTestApp, type TestApp } from '../support/app';
import { dayFromNow, wallTime } from '../support/relative-dates';
import { useStarted } from '../support/started';

let t: TestApp;
let calendar: CalendarSandbox;

useStarted(startTestApp, (started) => {
  t = started;
  calendar = t.app.emulators.calendar as CalendarSandbox;
});

const events = (title: string): EventPost[] =>
  calendar.state.postsOf('event').filter((e) => e.title === title);
const everythingShown = () => JSON.stringify([t.transcript.posted, t.transcript.updates, t.transcript.forms]);
const text = (card: Card | undefined) => `${card?.title ?? ''}\n${card?.text ?? ''}`;

// Hack night is tomorrow (Berlin), so `/events` always lists it as upcoming, and always before the
// seeded Monthly Meetup (three days from the day the sandbox started).
const HACK_DAY = dayFromNow(1);
/** The card's When of Hack night from `from` to `to` (`HH:MM`): `Tue 1 Dec 2026, 18:00–21:00 (Europe/Berlin)`. */
const hackWhen = (from: string, to: string) =>
  `${wallTime(`${HACK_DAY} ${from}`).toFormat('ccc d LLL yyyy')}, ${from}–${to} (Europe/Berlin)`;

describe('/event create', () => {
  it('creates the event and posts its card: title, when in the site’s zone, venue, link, Edit and Cancel', async () => {
    const [card] = await t.say(
      `/event create "Hack night" --start "${HACK_DAY} 18:00" --end "${HACK_DAY} 21:00" --venue "Main Hall" --category Meetup --cost 5 --image https://example.org/hack.png`,
    );
    const [created] = events('Hack night');
    expect(created).toBeDefined();
    expect(created?.venues).toEqual([10]);
    expect(card).toMatchObject({
      title: 'Hack night',
      status: 'success',
      links: [
        { label: 'Open', url: `${calendar.siteUrl}/event/hack-night/` },
        { label: 'Image', url: 'https://example.org/hack.png' },
      ],
    });
    expect(card?.fields).toEqual(
      expect.arrayContaining([
        { label: 'When', value: hackWhen('18:00', '21:00') },
        { label: 'Venue', value: 'Main Hall, Hauptstraße 1, Berlin' },
        expect.objectContaining({ label: 'Cost', value: '5' }),
      ]),
    );
    expect(card?.buttons?.map((b) => b.label)).toEqual(['Edit', 'Cancel event']);
    expect(card?.visibility, 'posted to the conversation').not.toBe('private');
  });

  it('reads times in --timezone and shows them in the site’s zone, with the local time too', async () => {
    const [card] = await t.say(
      '/event create "NY sync" --start "2026-12-02 12:00" --timezone America/New_York',
    );
    expect(card?.fields).toEqual(
      expect.arrayContaining([
        { label: 'When', value: 'Wed 2 Dec 2026, 18:00–19:00 (Europe/Berlin)' },
        { label: 'Local time', value: 'Wed 2 Dec 2026, 12:00–13:00 (America/New_York)' },
      ]),
    );
    expect(events('NY sync')[0]?.timezone).toBe('America/New_York');
  });

  it('makes a date without a time an all-day event', async () => {
    const [card] = await t.say('/event create "Retreat" --start 2026-12-05 --end 2026-12-06 --draft');
    expect(card?.fields?.[0]?.value).toBe('Sat 5 Dec – Sun 6 Dec 2026 (all day)');
    expect(card?.text).toContain('Draft: not public yet.');
    expect(events('Retreat')[0]).toMatchObject({ allDay: true, status: 'draft' });
  });

  it.each([
    [
      '/event create "Bad" --start "2026-13-01 18:00"',
      /Invalid --start: `2026-13-01 18:00` is not a valid date/,
    ],
    ['/event create "Bad" --start "next tuesday-ish"', /Invalid --start: .* use YYYY-MM-DD HH:MM/],
    [
      '/event create "Bad" --start "2026-12-01 18:00" --end "2026-12-01 17:00"',
      /ends \(2026-12-01 17:00\) before it starts/,
    ],
    [
      '/event create "Bad" --start "2026-12-01 18:00" --timezone Mars/Base',
      /Invalid --timezone: `Mars\/Base` is not a time zone/,
    ],
    [
      '/event create "Bad" --start "2026-12-01 18:00" --venue "Atlantis"',
      /There is no venue named “Atlantis”.*Venues: .*Main Hall/,
    ],
    [
      '/event create "Bad" --start "2026-12-01 18:00" --organizer 99999',
      /There is no organizer with id 99999/,
    ],
    ['/event create "Bad" --start "2026-12-01 18:00" --category Nope', /There is no category named “Nope”/],
    [
      '/event create "Bad" --start "2026-12-01 18:00" --website not-a-url',
      /Invalid --website: must be an http\(s\) URL/,
    ],
    ['/event create --start "2026-12-01 18:00"', /Missing <title>/],
  ])('%s → a clear message, nothing created', async (line, expected) => {
    const before = calendar.state.posts.size;
    const [card] = await t.say(line);
    expect(card?.text).toMatch(expected);
    expect(card?.text).not.toMatch(/\bat .*\.ts:\d+/);
    expect(calendar.state.posts.size).toBe(before);
  });

  it('offers a choice for an ambiguous venue name; the chosen button creates the event there', async () => {
    const [choice] = await t.say('/event create "Studio jam" --start "2026-12-03 20:00" --venue Studio');
    expect(choice?.title).toBe('Which venue “Studio”?');
    expect(choice?.buttons?.map((b) => b.label)).toEqual([
      'Studio — Oranienstraße 12, Berlin (#12)',
      'Studio — Speicherstadt 3, Hamburg (#13)',
    ]);
    expect(events('Studio jam')).toHaveLength(0);
    const [card] = await t.press(button(choice, 'Studio — Speicherstadt 3, Hamburg (#13)'));
    expect(card?.fields).toEqual(
      expect.arrayContaining([{ label: 'Venue', value: 'Studio, Speicherstadt 3, Hamburg' }]),
    );
    expect(events('Studio jam')[0]?.venues).toEqual([13]);
  });

  it('creates a new venue on request; if the event then fails it says so and retries with that venue', async () => {
    calendar.controls.failNext('POST', '/events', {
      status: 500,
      code: 'internal_server_error',
      message: 'There has been a critical error on this website.',
    });
    const [failed] = await t.say(
      '/event create "Garden party" --start "2026-12-04 15:00" --venue "Rose Garden" --create-venue',
    );
    const venue = calendar.state.postsOf('venue').find((v) => v.name === 'Rose Garden');
    expect(venue).toBeDefined();
    expect(events('Garden party')).toHaveLength(0);
    expect(failed?.text).toContain(
      `The venue “Rose Garden” was created (venue #${venue?.id}), but the event could not be`,
    );
    expect(failed?.text).toContain('critical error');
    const [card] = await t.press(button(failed, 'Retry with Rose Garden'));
    expect(card?.title).toBe('Garden party');
    expect(events('Garden party')[0]?.venues).toEqual([venue?.id]);
    expect(calendar.state.postsOf('venue').filter((v) => v.name === 'Rose Garden')).toHaveLength(1);
  });

  it('says which link is needed when the site refuses the credentials, without showing them', async () => {
    const bot = calendar.state.users.find((u) => u.login === 'deckhand');
    const saved = [...(bot?.appPasswords ?? [])];
    if (bot) bot.appPasswords = [];
    try {
      const [card] = await t.say('/event create "Refused" --start "2026-12-06 18:00"');
      expect(card?.text).toContain('The calendar site refused the credentials of deckhand');
      expect(card?.text).toContain(
        `${calendar.siteUrl}/wp-admin/authorize-application.php?app_name=Deckhand`,
      );
      expect(events('Refused')).toHaveLength(0);
    } finally {
      if (bot) bot.appPasswords = saved;
    }
    expect(everythingShown()).not.toContain(saved[0]);
    expect(everythingShown()).not.toContain(calendar.credentials.appPassword);
  });

  it('reads public events without a refused password and says it needs replacing; writes stay refused', async () => {
    const bot = calendar.state.users.find((u) => u.login === 'deckhand');
    const saved = [...(bot?.appPasswords ?? [])];
    if (bot) bot.appPasswords = [];
    try {
      const id = events('Monthly Meetup')[0]?.id as number;
      const [list] = await t.say(`/event show ${id}`);
      expect(list?.title).toBe('Monthly Meetup');
      expect(list?.footer).toContain(
        'The calendar site refused the application password of deckhand (revoked or mistyped?), so this was read without it',
      );
      expect(list?.footer).toContain(
        `${calendar.siteUrl}/wp-admin/authorize-application.php?app_name=Deckhand`,
      );
      const [write] = await t.say('/event create "Refused again" --start "2026-12-07 18:00"');
      expect(write?.text).toContain('The calendar site refused the credentials of deckhand');
      expect(events('Refused again')).toHaveLength(0);
    } finally {
      if (bot) bot.appPasswords = saved;
    }
    const [again] = await t.say(`/event show ${events('Monthly Meetup')[0]?.id}`);
    expect(again?.title).toBe('Monthly Meetup');
    expect(again?.footer ?? '').not.toContain('refused');
    expect(everythingShown()).not.toContain(saved[0]);
  });

  it('says so when the calendar site is down', async () => {
    calendar.controls.setDown(true);
    try {
      const [card] = await t.say('/event create "Offline" --start "2026-12-06 18:00"');
      expect(card?.text).toMatch(/The calendar service cannot be reached/);
      expect(card?.status).toBe('danger');
    } finally {
      calendar.controls.setDown(false);
    }
  });

  it('is for admins while Deckhand writes with the bot-wide account', async () => {
    const [card] = await t.say('/event create "Sneaky" --start "2026-12-06 18:00"', { user: 'UMAINT' });
    expect(card?.text).toContain('Only Deckhand admins can do that.');
    expect(events('Sneaky')).toHaveLength(0);
  });
});

describe('/events, /event show|update|cancel', () => {
  it('lists upcoming events with a Next button; the button shows page 2', async () => {
    const [first] = await t.say('/events');
    expect(first?.title).toBe('Upcoming events');
    expect(first?.fields).toHaveLength(10);
    expect(first?.footer).toMatch(/^Page 1 of 2 · \d+ events · times in Europe\/Berlin$/);
    const [second] = await t.press(button(first, 'Next ▶'));
    expect(second?.footer).toMatch(/^Page 2 of 2/);
    expect(second?.buttons?.map((b) => b.label)).toEqual(['◀ Previous']);
  });

  it('filters by text, dates, category and venue', async () => {
    const [hack] = await t.say('/events --search hack');
    expect(hack?.title).toBe('Events matching “hack”');
    expect(hack?.fields?.map((f) => f.value)).toEqual([
      expect.stringMatching(/^Hack night · Main Hall · #\d+$/),
    ]);
    const [onItsDay] = await t.say(`/events --from ${HACK_DAY} --to ${HACK_DAY}`);
    expect(onItsDay?.fields?.map((f) => f.value.split(' · ')[0])).toContain('Hack night');
    const [meetups] = await t.say('/events --category Meetup --venue "Main Hall"');
    expect(meetups?.fields?.map((f) => f.value.split(' · ')[0])).toEqual(['Hack night', 'Monthly Meetup']);
    const [none] = await t.say('/events --search "zzz nothing"');
    expect(none?.text).toBe('No events match.');
    const [bad] = await t.say('/events --from 2026-12-10 --to 2026-12-01');
    expect(bad?.text).toContain('--to is before --from');
  });

  it('shows, updates (keeping the duration when only the start moves) and cancels after confirmation', async () => {
    const id = events('Hack night')[0]?.id as number;
    const [shown] = await t.say(`/event show ${id}`);
    expect(shown?.title).toBe('Hack night');
    const [updated] = await t.say(
      `/event update hack-night --start "${HACK_DAY} 19:00" --venue "Community Room"`,
    );
    expect(updated?.fields).toEqual(
      expect.arrayContaining([
        { label: 'When', value: hackWhen('19:00', '22:00') },
        { label: 'Venue', value: 'Community Room, Gartenweg 5, Berlin' },
      ]),
    );
    const [nothing] = await t.say(`/event update ${id}`);
    expect(nothing?.text).toContain('Nothing to change');
    const [ask] = await t.press(button(updated, 'Cancel event'));
    expect(ask?.text).toContain(`Cancel event #${id} “Hack night”?`);
    expect(calendar.state.post('event', id)?.status).toBe('publish');
    const [done] = await t.press(button(ask, 'Confirm'));
    expect(done?.text).toContain('Cancelled: “Hack night” is in the trash.');
    // Its page is offline: the card links nowhere (the address would end in __trashed/).
    expect(done?.links?.map((link) => link.label)).not.toContain('Open');
    expect(JSON.stringify(done)).not.toContain('__trashed');
    expect(calendar.state.post('event', id)?.status).toBe('trash');
    // A second cancel is refused before any confirmation is asked.
    const [again] = await t.say(`/event cancel ${id}`);
    expect(again?.text).toMatch(new RegExp(`^Event ${id} is already in the trash.\nNothing was changed`));
    expect(again?.buttons ?? []).toEqual([]);
    const [gone] = await t.say(`/event show ${id}`);
    expect(gone?.text).toBe(
      `Event ${id} is in the trash.\nAn editor can restore it from the trash in WordPress.`,
    );
    const [missing] = await t.say('/event show 99999');
    expect(missing?.text).toBe('Event 99999 does not exist on the calendar.');
  });
});

describe('/venues, /organizers, /categories, /tags', () => {
  it('lists and creates each', async () => {
    const [venues] = await t.say('/venues list --search studio');
    expect(venues?.fields?.map((f) => f.value)).toEqual([
      'Studio — Oranienstraße 12, Berlin, Germany',
      'Studio — Speicherstadt 3, Hamburg, Germany',
    ]);
    const [venue] = await t.say('/venues create "Loft" --city Leipzig --website https://loft.example.org');
    expect(text(venue)).toMatch(/Venue “Loft” is on the calendar \(venue #\d+\)/);
    const [organizer] = await t.say('/organizers create "Grace Hopper" --email grace@example.org');
    expect(text(organizer)).toMatch(/Organizer “Grace Hopper” is on the calendar/);
    const [organizers] = await t.say('/organizers list');
    expect(organizers?.fields?.map((f) => f.value.split(' — ')[0])).toContain('Grace Hopper');
    const [category] = await t.say('/categories create "Kids workshop" --parent Workshop');
    expect(text(category)).toMatch(/Category “Kids workshop” added/);
    const [duplicate] = await t.say('/categories create Workshop');
    expect(duplicate?.text).toContain('The category “Workshop” exists already.');
    const [categories] = await t.say('/categories list');
    expect(categories?.fields?.map((f) => f.value)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Kids workshop \(kids-workshop\) — 0 events$/)]),
    );
    const [tag] = await t.say('/tags create rust');
    expect(text(tag)).toContain('Tag “rust” added');
    const [tags] = await t.say('/tags list');
    expect(tags?.fields?.map((f) => f.value.split(' ')[0])).toEqual(
      expect.arrayContaining(['beginner', 'rust']),
    );
    const [bad] = await t.say('/organizers create "X" --email nope');
    expect(bad?.text).toContain('Invalid --email');
  });
});

describe('/calendar info', () => {
  it('shows the site, its time zone, the account Deckhand writes with, and the digest here', async () => {
    const [card] = await t.say('/calendar info');
    expect(card?.fields).toEqual([
      { label: 'Site', value: 'Deckhand Community Calendar', url: calendar.siteUrl },
      expect.objectContaining({ label: 'Time zone', value: expect.stringContaining('Europe/Berlin') }),
      { label: 'Account', value: 'deckhand (application password)' },
      { label: 'Digest here', value: 'none (/deckhand calendar digest --daily)' },
    ]);
  });
});
