/**
 * The plugin's behaviours through the commands: `/event update` keeps what it does not change, `/event cancel`
 * checks the event before asking, and `/events --from/--to` and the digest list exactly the events
 * starting in their window on sites in Europe/Berlin and America/New_York (the emulator reads strict
 * bounds as UTC, as the plugin does).
 */

import { type CalendarSandbox, SANDBOX_CALENDAR_USERS } from '@deckhand/sandbox/calendar';
import type { EventPost } from '@deckhand/sandbox/calendar/state';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { digestCard } from '../../commands/calendar/calendar-digest';
import type { DigestJobData } from '../../src/queue/digest-scheduler';
import { button, startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';

const AUTH = `Basic ${Buffer.from(`${SANDBOX_CALENDAR_USERS.editor.user}:${SANDBOX_CALENDAR_USERS.editor.appPassword}`).toString('base64')}`;

/** Creates an event on the sandbox over HTTP, as any other client of the site would. */
async function createEvent(calendar: CalendarSandbox, fields: Record<string, unknown>): Promise<number> {
  const response = await fetch(`${calendar.restRoot}/tribe/events/v1/events`, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: JSON.stringify(fields),
  });
  const body = (await response.json()) as { id: number };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.id;
}

describe('/event update and /event cancel', () => {
  let t: TestApp;
  let calendar: CalendarSandbox;
  useStarted(startTestApp, (started) => {
    t = started;
    calendar = t.app.emulators.calendar as CalendarSandbox;
  });

  it('/event update --title changes the title and keeps every other field of the event', async () => {
    const organizer = calendar.state.postsOf('organizer')[0]?.id as number;
    const id = await createEvent(calendar, {
      title: 'Command full',
      description: 'Everything set',
      status: 'draft',
      timezone: 'America/New_York',
      start_date: '2026-12-04 18:00:00',
      end_date: '2026-12-04 21:00:00',
      cost: '7',
      website: 'https://example.org/command',
      image: '22',
      organizer: [organizer],
      featured: true,
      sticky: true,
      hide_from_listings: true,
      show_map: true,
      show_map_link: true,
    });
    const {
      title: _t,
      modified: _m,
      ...before
    } = structuredClone(calendar.state.post('event', id) as EventPost);
    expect(before).toMatchObject({ status: 'draft', timezone: 'America/New_York', image: { id: 22 } });
    const [card] = await t.say(`/event update ${id} --title "Command full, renamed"`);
    expect(card?.title).toBe('Command full, renamed');
    const { title, modified: _m2, ...after } = calendar.state.post('event', id) as EventPost;
    expect(title).toBe('Command full, renamed');
    for (const key of Object.keys(before) as (keyof typeof before)[]) {
      expect(after[key], key).toEqual(before[key]);
    }
    const [allDay] = [
      await createEvent(calendar, {
        title: 'Command all day',
        start_date: '2026-12-06',
        end_date: '2026-12-06',
        all_day: true,
        timezone: 'America/New_York',
      }),
    ];
    const kept = structuredClone(calendar.state.post('event', allDay) as EventPost);
    await t.say(`/event update ${allDay} --cost 4`);
    expect(calendar.state.post('event', allDay)).toMatchObject({
      allDay: true,
      timezone: 'America/New_York',
      startUtc: kept.startUtc,
      endUtc: kept.endUtc,
      cost: '4',
    });
  });

  it('/event cancel 99999 is refused before any confirmation; a real one is confirmed by its exact id', async () => {
    const [missing] = await t.say('/event cancel 99999');
    expect(missing?.text).toBe('Event 99999 does not exist on the calendar.');
    expect(missing?.buttons ?? []).toEqual([]);
    // Positive control: an existing event, named by slug, is asked about by id.
    const id = await createEvent(calendar, {
      title: 'Cancel by slug',
      slug: 'cancel-by-slug',
      start_date: '2026-12-08 10:00',
      end_date: '2026-12-08 11:00',
    });
    const [ask] = await t.say('/event cancel cancel-by-slug');
    expect(ask?.text).toContain(`Cancel event #${id} “Cancel by slug”?`);
    expect(ask?.buttons?.map((b) => b.label)).toEqual(['Confirm', 'Cancel']);
    expect(calendar.state.post('event', id)?.status).toBe('publish');
    const [done] = await t.press(button(ask, 'Confirm'));
    expect(done?.text).toContain('Cancelled: “Cancel by slug” is in the trash.');
    expect(calendar.state.post('event', id)?.status).toBe('trash');
    const [again] = await t.say('/event cancel cancel-by-slug');
    expect(again?.text).toMatch(/^Event cancel-by-slug is already in the trash\./);
    expect(again?.buttons ?? []).toEqual([]);
  });
});

describe.each(['Europe/Berlin', 'America/New_York'])('date windows on a site in %s', (zone) => {
  let t: TestApp;
  let calendar: CalendarSandbox;
  useStarted(startTestApp, (started) => {
    t = started;
    calendar = t.app.emulators.calendar as CalendarSandbox;
    // Before anything reads (and caches) the site's zone.
    calendar.state.site.timezone = zone;
  });

  /** Events of this test (their titles start with `prefix`) that a card lists. */
  const listed = (text: string, prefix: string) =>
    [...text.matchAll(new RegExp(`${prefix}[a-z-]+`, 'g'))].map((m) => m[0]).sort();

  it('/events --from/--to lists the events starting inside, also 20 minutes from each bound', async () => {
    const at = (local: string, minutes: number) =>
      DateTime.fromISO(local, { zone }).plus({ minutes }).toFormat('yyyy-MM-dd HH:mm:ss');
    const events: Record<string, string> = {
      'W-before-from': at('2027-03-10T10:00', -20),
      'W-after-from': at('2027-03-10T10:00', 20),
      'W-before-to': at('2027-03-10T18:00', -20),
      'W-after-to': at('2027-03-10T18:00', 20),
    };
    for (const [title, start] of Object.entries(events)) {
      // Two hours long: "W-before-to" runs past the window's end and is still one of its events.
      const end = DateTime.fromFormat(start, 'yyyy-MM-dd HH:mm:ss')
        .plus({ hours: 2 })
        .toFormat('yyyy-MM-dd HH:mm:ss');
      await createEvent(calendar, { title, start_date: start, end_date: end });
    }
    const [card] = await t.say('/events --from "2027-03-10 10:00" --to "2027-03-10 18:00"');
    const text = JSON.stringify(card);
    expect(card?.footer).toContain(`times in ${zone}`);
    expect(listed(text, 'W-')).toEqual(['W-after-from', 'W-before-to']);
    // Positive control: a wider window lists all four.
    const [wide] = await t.say('/events --from 2027-03-10 --to 2027-03-10');
    expect(listed(JSON.stringify(wide), 'W-')).toEqual([
      'W-after-from',
      'W-after-to',
      'W-before-from',
      'W-before-to',
    ]);
  });

  it('the daily digest lists the events starting until this time tomorrow, also 20 minutes from each end', async () => {
    const now = DateTime.now().setZone(zone).startOf('minute');
    // The window is a day on the site's wall clock (as the digest's daily cron): 24 hours, but 23 or
    // 25 when it spans a change of daylight saving time.
    const tomorrow = now.plus({ days: 1 });
    const fmt = (d: DateTime) => d.toFormat('yyyy-MM-dd HH:mm:ss');
    const events: Record<string, DateTime> = {
      'D-started': now.minus({ minutes: 20 }),
      'D-soon': now.plus({ minutes: 20 }),
      'D-tomorrow-early': tomorrow.minus({ minutes: 20 }),
      'D-tomorrow-late': tomorrow.plus({ minutes: 20 }),
    };
    for (const [title, start] of Object.entries(events)) {
      await createEvent(calendar, {
        title,
        start_date: fmt(start),
        end_date: fmt(start.plus({ hours: 1 })),
        timezone: zone,
      });
    }
    const data = {
      conversationId: 'slack:T1:C1',
      platform: 'slack',
      every: 'daily',
      at: '09:00',
      weekday: 1,
      timezone: zone,
    } as DigestJobData;
    const card = await digestCard(t.app.services.calendar, data);
    expect(card?.footer).toContain(`times in ${zone}`);
    expect(listed(JSON.stringify(card), 'D-')).toEqual(['D-soon', 'D-tomorrow-early']);
  });
});
