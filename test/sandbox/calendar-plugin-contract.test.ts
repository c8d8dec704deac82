/**
 * The calendar emulator against the real plugin: each behaviour here was read in the source of
 * the-events-calendar 6.17.2 (commit 31784e78, "Version: 6.17.2") and tribe-common 6.12.2 (commit
 * 90edbc0b), or WordPress core, and reported from a real WordPress 6.8 site. The file
 * and function are named in each test. Raw HTTP, as the plugin would be called.
 */

import { SANDBOX_CALENDAR_USERS } from '@deckhand/sandbox/calendar';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Body, basic, EDITOR, useCalendarApi } from '../support/calendar-api';

// A fixed clock, so the route's default dates do not matter.
const calendar = useCalendarApi({ seed: true, now: () => Date.parse('2026-11-23T12:00:00Z') });
const { call } = calendar;

async function create(fields: Body): Promise<Body> {
  const { status, body } = await call('POST', '/events', { auth: EDITOR, json: fields });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

let venueId: number;
let organizerId: number;
let categoryId: number;

beforeAll(async () => {
  venueId = (await call('POST', '/venues', { auth: EDITOR, json: { venue: 'Contract Hall' } })).body
    .id as number;
  organizerId = (await call('POST', '/organizers', { auth: EDITOR, json: { organizer: 'Contract Org' } }))
    .body.id as number;
  categoryId = (await call('POST', '/categories', { auth: EDITOR, json: { name: 'Contract' } })).body
    .id as number;
});

describe('update rebuilds the event from the request (Single_Event.php prepare_postarr, API.php prepare_event_date_meta, TEC 6.17.2)', () => {
  it('a title-only update publishes a draft, resets all-day, zone (UTC dates not recomputed), cost, website, organizer, image and flags; keeps the rest', async () => {
    const event = await create({
      title: 'Full event',
      description: 'All the fields',
      excerpt: 'Short',
      slug: 'full-event',
      status: 'draft',
      timezone: 'America/New_York',
      start_date: '2026-12-03 18:00:00',
      end_date: '2026-12-03 20:00:00',
      cost: '10',
      website: 'https://example.org/full',
      image: '22',
      venue: venueId,
      organizer: [organizerId],
      categories: [categoryId],
      featured: true,
      sticky: true,
      show_map: true,
      show_map_link: true,
      hide_from_listings: true,
    });
    // Positive control: everything was stored as sent.
    expect(event).toMatchObject({
      status: 'draft',
      timezone: 'America/New_York',
      start_date: '2026-12-03 18:00:00',
      utc_start_date: '2026-12-03 23:00:00',
      cost: '10',
      website: 'https://example.org/full',
      image: { id: 22 },
      organizer: [{ id: organizerId }],
      featured: true,
      sticky: true,
      show_map: true,
      show_map_link: true,
      hide_from_listings: true,
    });
    const { status, body } = await call('POST', `/events/${event.id}`, {
      auth: EDITOR,
      json: { title: 'Renamed' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      // Reset: scale_back_post_status(null) → publish; EventAllDay default false; EventTimezone → site's.
      status: 'publish',
      all_day: false,
      timezone: 'Europe/Berlin',
      // The stored wall-clock dates stay, and the UTC ones are not recomputed for the new zone.
      start_date: '2026-12-03 18:00:00',
      end_date: '2026-12-03 20:00:00',
      utc_start_date: '2026-12-03 23:00:00',
      utc_end_date: '2026-12-04 01:00:00',
      cost: '',
      website: '',
      image: false,
      organizer: [],
      featured: false,
      sticky: false,
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      // Kept.
      title: 'Renamed',
      slug: 'full-event',
      venue: { id: venueId },
      categories: [{ id: categoryId }],
    });
    expect(body.description).toContain('All the fields');
    expect(body.excerpt).toContain('Short');
  });

  it('all_day goes back to false on an update that does not send it', async () => {
    const event = await create({
      title: 'All day',
      start_date: '2026-12-05',
      end_date: '2026-12-05',
      all_day: true,
    });
    expect(event).toMatchObject({
      all_day: true,
      start_date: '2026-12-05 00:00:00',
      end_date: '2026-12-05 23:59:59',
    });
    const { body } = await call('POST', `/events/${event.id}`, {
      auth: EDITOR,
      json: { title: 'All day 2' },
    });
    expect(body).toMatchObject({ all_day: false, start_date: '2026-12-05 00:00:00' });
  });

  it('dates change only when both start and end come with the update (date_provided); dates without a zone are read in the site’s', async () => {
    const event = await create({
      title: 'Dates',
      timezone: 'America/New_York',
      start_date: '2026-12-07 10:00:00',
      end_date: '2026-12-07 11:00:00',
    });
    const startOnly = await call('POST', `/events/${event.id}`, {
      auth: EDITOR,
      json: { start_date: '2026-12-08 10:00:00', timezone: 'America/New_York' },
    });
    expect(startOnly.body).toMatchObject({
      start_date: '2026-12-07 10:00:00',
      utc_start_date: '2026-12-07 15:00:00',
    });
    const both = await call('POST', `/events/${event.id}`, {
      auth: EDITOR,
      json: { start_date: '2026-12-08 10:00:00', end_date: '2026-12-08 11:00:00' },
    });
    expect(both.body).toMatchObject({
      timezone: 'Europe/Berlin',
      start_date: '2026-12-08 10:00:00',
      utc_start_date: '2026-12-08 09:00:00',
    });
  });

  it('an end before the start is stored as the start, not refused (API.php "sanity check that start date < end date")', async () => {
    const event = await create({
      title: 'Backwards',
      start_date: '2026-12-09 18:00',
      end_date: '2026-12-09 17:00',
    });
    expect(event).toMatchObject({ start_date: '2026-12-09 18:00:00', end_date: '2026-12-09 18:00:00' });
  });
});

describe("image is a string argument (Single_Event.php CREATE_args 'type' => 'string'; core rest_validate_value_from_schema)", () => {
  it('refuses a JSON number with core’s message and takes the same id as a string', async () => {
    const before = calendar.sandbox.state.posts.size;
    const refused = await call('POST', '/events', {
      auth: EDITOR,
      json: {
        title: 'Numeric image',
        start_date: '2026-12-10 10:00',
        end_date: '2026-12-10 11:00',
        image: 22,
      },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'rest_invalid_param', data: { params: { image: 'image is not of type string.' } } },
    });
    expect(calendar.sandbox.state.posts.size).toBe(before);
    const taken = await create({
      title: 'String image',
      start_date: '2026-12-10 10:00',
      end_date: '2026-12-10 11:00',
      image: '22',
    });
    expect(taken.image).toMatchObject({ id: 22 });
    const venue = await call('POST', `/venues/${venueId}`, { auth: EDITOR, json: { image: 22 } });
    expect(venue.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { image: 'image is not of type string.' } },
    });
  });
});

describe('strict date bounds are read as UTC (Archive_Event.php get(), tribe-common 6.12.2 Timezones.php localize_date)', () => {
  it('a bare bound is UTC, one with an offset is that offset; start_date keeps events starting on or after it, end_date those ending on or before it', async () => {
    // 00:30 in Berlin is 23:30 UTC the day before.
    const event = await create({
      title: 'Just after midnight',
      start_date: '2027-01-15 00:30',
      end_date: '2027-01-15 01:30',
    });
    const ids = async (query: string) =>
      ((await call('GET', `/events?strict_dates=true&${query}`)).body.events as Body[]).map((e) => e.id);
    // "2027-01-15 00:00:00" is read as 00:00 UTC = 01:00 Berlin: the event (00:30 Berlin) is before it.
    expect(await ids('start_date=2027-01-15%2000:00:00&end_date=2027-01-15%2023:59:59')).not.toContain(
      event.id,
    );
    // The same wall-clock time with the site's offset: included (positive control).
    expect(
      await ids('start_date=2027-01-15T00:00:00%2B01:00&end_date=2027-01-15T23:59:59%2B01:00'),
    ).toContain(event.id);
    // end_date is "ends on or before": an event still running at end_date is not listed.
    expect(
      await ids('start_date=2027-01-15T00:00:00%2B01:00&end_date=2027-01-15T01:00:00%2B01:00'),
    ).not.toContain(event.id);
  });

  it('in the default "event" time-zone mode bounds are compared with each event’s own wall-clock time (Repositories/Event.php constructor)', async () => {
    // 10:00 in New York is 16:00 in Berlin, after an 11:00 (Berlin) bound — yet its wall-clock 10:00 is before it.
    const event = await create({
      title: 'New York morning',
      timezone: 'America/New_York',
      start_date: '2027-04-01 10:00',
      end_date: '2027-04-01 11:00',
    });
    const query =
      '/events?strict_dates=true&start_date=2027-04-01T11:00:00%2B02:00&end_date=2027-04-02T00:00:00%2B02:00';
    const ids = async () => ((await call('GET', query)).body.events as Body[]).map((e) => e.id);
    expect(await ids()).not.toContain(event.id);
    calendar.sandbox.state.site.timezoneMode = 'site';
    try {
      expect(await ids()).toContain(event.id);
    } finally {
      calendar.sandbox.state.site.timezoneMode = undefined;
    }
  });

  it('events hidden from listings are never listed (Query.php getEvents: by( hidden, false ))', async () => {
    const hidden = await create({
      title: 'Hidden',
      start_date: '2027-01-20 10:00',
      end_date: '2027-01-20 11:00',
      hide_from_listings: true,
    });
    const shown = await create({
      title: 'Shown',
      start_date: '2027-01-20 10:00',
      end_date: '2027-01-20 11:00',
    });
    const { body } = await call('GET', '/events?start_date=2027-01-20&end_date=2027-01-20');
    const ids = (body.events as Body[]).map((e) => e.id);
    expect(ids).toContain(shown.id);
    expect(ids).not.toContain(hidden.id);
  });
});

describe('a trashed event’s slug is renamed (wp_trash_post; Single_Event_Slug.php, Validator/Base.php is_event_slug)', () => {
  it('by-slug/<old slug> answers 400 rest_invalid_param slug — no fallback — and <slug>__trashed is the trashed event', async () => {
    const event = await create({
      title: 'Trash me',
      slug: 'trash-me',
      start_date: '2027-02-01 10:00',
      end_date: '2027-02-01 11:00',
    });
    expect((await call('DELETE', '/events/by-slug/trash-me', { auth: EDITOR })).body).toMatchObject({
      id: event.id,
      status: 'trash',
      slug: 'trash-me__trashed',
    });
    for (const method of ['GET', 'DELETE']) {
      expect(await call(method, '/events/by-slug/trash-me', { auth: EDITOR })).toMatchObject({
        status: 400,
        body: { code: 'rest_invalid_param', data: { params: { slug: expect.any(String) } } },
      });
    }
    expect(await call('DELETE', '/events/by-slug/trash-me__trashed', { auth: EDITOR })).toMatchObject({
      status: 410,
      body: { code: 'event-is-in-trash' },
    });
  });
});

describe('a bad application password fails every request (WordPress core wp_authenticate_application_password)', () => {
  it('answers 401 incorrect_password even to public reads, which succeed anonymously', async () => {
    const bad = basic(SANDBOX_CALENDAR_USERS.editor.user, 'revoked password 0000');
    const event = await create({
      title: 'Public',
      start_date: '2027-02-02 10:00',
      end_date: '2027-02-02 11:00',
    });
    expect((await call('GET', `/events/${event.id}`)).status).toBe(200);
    expect((await call('GET', '/events')).status).toBe(200);
    const index = await fetch(calendar.sandbox.restRoot, { headers: { authorization: bad } });
    expect(index.status).toBe(401);
    for (const path of [`/events/${event.id}`, '/events', '/venues']) {
      expect(await call('GET', path, { auth: bad })).toMatchObject({
        status: 401,
        body: { code: 'incorrect_password' },
      });
    }
  });
});

describe('venue and organizer updates (Single_Venue.php / Single_Organizer.php prepare_postarr, Venue.php update + save_meta)', () => {
  it('publish a draft, drop the image, turn the map on and empty state/province when not sent', async () => {
    const created = await call('POST', '/venues', {
      auth: EDITOR,
      json: {
        venue: 'Draft Venue',
        status: 'draft',
        image: '31',
        show_map: false,
        show_map_link: false,
        city: 'Berlin',
        province: 'Brandenburg',
        stateprovince: 'Brandenburg',
      },
    });
    expect(created.body).toMatchObject({
      status: 'draft',
      image: { id: 31 },
      show_map: false,
      stateprovince: 'Brandenburg',
    });
    const { body } = await call('POST', `/venues/${created.body.id}`, {
      auth: EDITOR,
      json: { phone: '123' },
    });
    expect(body).toMatchObject({ status: 'publish', show_map: true, show_map_link: true, city: 'Berlin' });
    // The image is gone: get_venue_data's array_filter drops `image: false`.
    expect(body.image ?? false).toBe(false);
    expect(body.stateprovince ?? '').toBe('');
    const organizer = await call('POST', '/organizers', {
      auth: EDITOR,
      json: { organizer: 'Draft Org', status: 'draft', image: '32' },
    });
    const updated = await call('POST', `/organizers/${organizer.body.id}`, {
      auth: EDITOR,
      json: { phone: '1' },
    });
    expect(organizer.body).toMatchObject({ status: 'draft', image: { id: 32 } });
    expect(updated.body).toMatchObject({ status: 'publish' });
    expect(updated.body.image ?? false).toBe(false);
  });
});
