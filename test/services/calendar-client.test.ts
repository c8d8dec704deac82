/**
 * The calendar client against the calendar sandbox over real HTTP: the site, the namespace, and
 * reading events, with each documented error (writes: calendar-client-writes.test.ts).
 */

import { SANDBOX_EVENT_PASSWORD } from '@deckhand/sandbox/calendar';
import { describe, expect, it } from 'vitest';
import { NotFoundError, UnreachableError, UpstreamError, UsageError } from '../../src/core/errors';
import { type CalendarClient, CalendarService } from '../../src/services/calendar';
import { useCalendarClient } from '../support/calendar-client';

const rig = useCalendarClient();
const { eventId } = rig;

describe('site and namespace', () => {
  it('reads the site index (name, address, time zone) and the namespace index and doc', async () => {
    await expect(rig.service.site()).resolves.toMatchObject({
      name: 'Deckhand Community Calendar',
      url: rig.sandbox.siteUrl,
      timezone: 'Europe/Berlin',
      namespaces: expect.arrayContaining(['tribe/events/v1']),
    });
    await expect(rig.anonymous.namespaceIndex()).resolves.toMatchObject({ namespace: 'tribe/events/v1' });
    await expect(rig.anonymous.doc()).resolves.toMatchObject({ swagger: '2.0' });
  });

  it('works with plain permalinks (?rest_route=) too', async () => {
    const plain = new CalendarService({ restRoot: `${rig.sandbox.siteUrl}/?rest_route=`, retries: 0 });
    const page = await plain.anonymous().events.list({ search: 'Monthly Meetup' });
    expect(page.items.map((e) => e.title)).toEqual(['Monthly Meetup']);
    await plain.close();
  });

  it('says to check CALENDAR_URL and CALENDAR_NAMESPACE for a wrong namespace or a disabled API', async () => {
    const wrong = new CalendarService({
      restRoot: rig.sandbox.restRoot,
      namespace: 'calendar/events/v1',
      retries: 0,
    });
    await expect(wrong.anonymous().events.list()).rejects.toThrow(/CALENDAR_URL .*CALENDAR_NAMESPACE/);
    await wrong.close();
    rig.sandbox.controls.setApiDisabled(true);
    try {
      await expect(rig.anonymous.events.list()).rejects.toMatchObject({
        status: 404,
        message: expect.stringContaining('switched on'),
      });
    } finally {
      rig.sandbox.controls.setApiDisabled(false);
    }
  });

  it('says how to set up a calendar when none is configured', () => {
    const none = new CalendarService({ restRoot: undefined });
    expect(none.configured).toBe(false);
    expect(() => none.anonymous()).toThrow(
      expect.objectContaining({
        message: 'No event calendar is set up for Deckhand.',
        hint: expect.stringContaining('CALENDAR_URL'),
      }),
    );
  });

  it('reports a site that cannot be reached', async () => {
    rig.sandbox.controls.setDown(true);
    try {
      await expect(rig.anonymous.events.list()).rejects.toBeInstanceOf(UnreachableError);
    } finally {
      rig.sandbox.controls.setDown(false);
    }
  });
});

describe('events: list', () => {
  it('lists upcoming published events by default, in the real envelope, sorted by start', async () => {
    const page = await rig.anonymous.events.list();
    const titles = page.items.map((e) => e.title);
    expect(titles).toContain('Monthly Meetup');
    expect(titles).not.toContain("Last Month's Meetup");
    expect(titles).not.toContain('Planning Session');
    expect(titles).not.toContain('Cancelled Talk');
    expect(page.page).toBe(1);
    expect(page.items).toHaveLength(10);
    expect(page.total).toBeGreaterThan(10);
    expect(page.totalPages).toBe(Math.ceil(page.total / 10));
    expect(page.nextUrl).toContain('page=2');
    expect(page.previousUrl).toBeUndefined();
    const starts = page.items.map((e) => e.utcStartDate);
    expect([...starts].sort()).toEqual(starts);
  });

  it('normalises the event: plain-text title, venue as a list, organizers, terms, dates in three forms', async () => {
    const [meetup] = (await rig.anonymous.events.list({ search: 'Monthly Meetup' })).items;
    expect(meetup).toMatchObject({
      title: 'Monthly Meetup',
      description: 'Lightning talks, pizza & a look at what everyone is building.',
      timezone: 'Europe/Berlin',
      featured: true,
      allDay: false,
      venues: [expect.objectContaining({ name: 'Main Hall', city: 'Berlin' })],
      organizers: [expect.objectContaining({ name: 'Deckhand Meetup Team' })],
      categories: [expect.objectContaining({ name: 'Meetup', slug: 'meetup' })],
      tags: [expect.objectContaining({ name: 'beginner' })],
    });
    expect(meetup?.startDate).toMatch(/^\d{4}-\d{2}-\d{2} 18:00:00$/);
    expect(meetup?.utcStartDate).toMatch(/^\d{4}-\d{2}-\d{2} 1[67]:00:00$/);
    const [workshop] = (await rig.anonymous.events.list({ search: 'TypeScript' })).items;
    expect(workshop?.title).toBe('Intro to TypeScript – Workshop');
    expect(workshop?.cost).toBe('15');
  });

  it('filters by search, categories (slug or id), tags, venue, organizer and featured', async () => {
    const titles = async (query: Parameters<CalendarClient['events']['list']>[0]) =>
      (await rig.anonymous.events.list({ per_page: 50, ...query })).items.map((e) => e.title);
    const workshop = rig.sandbox.state.termsOf('tribe_events_cat').find((t) => t.slug === 'workshop')
      ?.id as number;
    expect(await titles({ categories: ['meetup'] })).toEqual(['Monthly Meetup', 'Community Party']);
    expect(await titles({ categories: [workshop] })).toEqual(['Intro to TypeScript – Workshop']);
    expect(await titles({ tags: ['javascript'] })).toEqual(['Intro to TypeScript – Workshop']);
    expect(await titles({ venue: [10] })).toEqual(['Monthly Meetup']);
    const ada = rig.sandbox.state.postsOf('organizer').find((o) => o.name === 'Ada Lovelace')?.id as number;
    expect((await titles({ organizer: [ada] })).length).toBeGreaterThan(5);
    expect(await titles({ featured: true })).toEqual(['Monthly Meetup']);
    expect(await titles({ search: 'no such thing anywhere' })).toEqual([]);
  });

  it('takes date filters: whole days unless strict_dates, starts_/ends_ bounds, include ignoring dates', async () => {
    const meetup = rig.sandbox.state.post('event', eventId('Monthly Meetup'));
    const day = new Date(meetup?.startUtc ?? 0).toISOString().slice(0, 10);
    const onDay = await rig.anonymous.events.list({ start_date: day, end_date: day, per_page: 50 });
    expect(onDay.items.map((e) => e.title)).toContain('Monthly Meetup');
    const strict = await rig.anonymous.events.list({
      start_date: `${day} 21:30:00`,
      end_date: `${day} 23:00:00`,
      strict_dates: true,
    });
    expect(strict.items.map((e) => e.title)).not.toContain('Monthly Meetup');
    const past = eventId("Last Month's Meetup");
    const included = await rig.anonymous.events.list({ include: [past] });
    expect(included.items.map((e) => e.title)).toEqual(['Last Month’s Meetup']);
    const bounded = await rig.anonymous.events.list({
      starts_after: 'yesterday',
      ends_before: '+2 days',
      per_page: 50,
    });
    expect(bounded.items.map((e) => e.title)).toEqual(['Open Office Hours #1']);
  });

  it('clamps per_page to 50, answers page 1 of nothing with an empty list, and a page past the end with an error', async () => {
    const big = await rig.anonymous.events.list({ per_page: 500 });
    expect(big.totalPages).toBe(1);
    expect(big.items.length).toBe(big.total);
    const empty = await rig.anonymous.events.list({ search: 'zzz-nothing' });
    expect(empty).toMatchObject({ items: [], total: 0, totalPages: 0 });
    const last = await rig.anonymous.events.list({ page: 2 });
    expect(last.previousUrl).toContain('page=1');
    expect(last.nextUrl).toBeUndefined();
    await expect(rig.anonymous.events.list({ page: 99 })).rejects.toThrow(
      new NotFoundError('There is no such page of events: the list is shorter.'),
    );
  });

  it('shows drafts to editors only; anonymous callers may not ask for them', async () => {
    const drafts = await rig.editor.events.list({ status: 'draft' });
    expect(drafts.items.map((e) => e.title)).toEqual(['Planning Session']);
    await expect(rig.anonymous.events.list({ status: 'draft' })).rejects.toThrow(
      new UsageError('The calendar refused the value of status.'),
    );
  });

  it('refuses unknown terms, venues, a bad post_parent and ticketed without Event Tickets', async () => {
    await expect(rig.anonymous.events.list({ categories: ['nope'] })).rejects.toThrow(
      /refused the value of categories/,
    );
    await expect(rig.anonymous.events.list({ venue: [99999] })).rejects.toThrow(/refused the value of venue/);
    await expect(rig.anonymous.events.list({ post_parent: 99999 })).rejects.toMatchObject({ status: 400 });
    await expect(rig.anonymous.events.list({ ticketed: true })).rejects.toThrow(
      /does not have Event Tickets/,
    );
  });

  it('blanks the protected fields of a password-protected event in lists', async () => {
    const [members] = (await rig.anonymous.events.list({ search: 'Members' })).items;
    expect(members).toMatchObject({
      title: 'Members’ Evening',
      description: '',
      venues: [],
      image: undefined,
    });
  });
});

describe('events: one, by id or slug', () => {
  it('reads an event by id and by slug', async () => {
    const id = eventId('Monthly Meetup');
    await expect(rig.anonymous.events.get(id)).resolves.toMatchObject({ id, slug: 'monthly-meetup' });
    await expect(rig.anonymous.events.get('monthly-meetup')).resolves.toMatchObject({ id });
  });

  it.each([
    ['an id that does not exist', 99999, NotFoundError, 'Event 99999 does not exist on the calendar.'],
    [
      'a slug that does not exist',
      'no-such-event',
      NotFoundError,
      'Event no-such-event does not exist on the calendar.',
    ],
    ['a venue id', 10, UpstreamError, 'Event 10 is not an event.'],
  ])('names %s', async (_what, ref, type, message) => {
    const error = await rig.anonymous.events.get(ref).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toBe(message);
  });

  it('keeps unpublished, trashed and password-protected events from those who may not see them', async () => {
    const draft = eventId('Planning Session');
    await expect(rig.anonymous.events.get(draft)).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('not published'),
    });
    await expect(rig.editor.events.get(draft)).resolves.toMatchObject({ status: 'draft' });
    await expect(rig.anonymous.events.get(eventId('Cancelled Talk'))).rejects.toMatchObject({
      status: 403,
      message: `Event ${eventId('Cancelled Talk')} is in the trash.`,
    });
    const members = eventId("Members' Evening");
    await expect(rig.anonymous.events.get(members)).rejects.toThrow(/password-protected/);
    await expect(
      rig.anonymous.events.get(members, { password: SANDBOX_EVENT_PASSWORD }),
    ).resolves.toMatchObject({
      description: 'For members only.',
    });
  });
});
