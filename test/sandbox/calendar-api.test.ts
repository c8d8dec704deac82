/** The calendar emulator over raw HTTP: the plugin's envelopes, headers, error bodies, auth and trash. */

import { SANDBOX_CALENDAR_USERS } from '@deckhand/sandbox/calendar';
import { describe, expect, it } from 'vitest';
import { basic, EDITOR, useCalendarApi } from '../support/calendar-api';

const calendar = useCalendarApi();
const { call } = calendar;

describe('calendar emulator', () => {
  it('answers lists in the plugin envelope with X-TEC totals, clamping per_page to 50', async () => {
    const { status, headers, body } = await call('GET', '/events?per_page=100');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['events', 'rest_url', 'total', 'total_pages']);
    expect(body.rest_url).toContain('per_page=50');
    expect(body.rest_url).toContain('start_date=');
    expect(headers.get('x-tec-total')).toBe(String(body.total));
    expect(headers.get('x-tec-totalpages')).toBe('1');
    const event = (body.events as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(event).toMatchObject({
      start_date_details: { hour: expect.stringMatching(/^\d{2}$/), minutes: '00' },
      author: '1',
      custom_fields: [],
    });
    expect(Array.isArray(event.organizer)).toBe(true);
    const page2 = await call('GET', '/events?per_page=5&page=2');
    expect(page2.body).toHaveProperty('next_rest_url');
    expect(page2.body.previous_rest_url).toContain('page=1');
  });

  it('answers errors as {code, message, data.status} with the same HTTP status', async () => {
    const cases: [string, string, number, string][] = [
      ['GET', '/events/99999', 404, 'rest-event-not-found'],
      ['GET', '/events?page=50', 404, 'event-archive-page-not-found'],
      ['GET', '/events?page=0', 400, 'rest_invalid_param'],
      ['GET', '/events?status=draft', 400, 'rest_invalid_param'],
      ['GET', '/venues/99999', 400, 'rest_invalid_param'],
      // Single_Category.php READ_args: `id` is checked by is_event_category before the terms controller.
      ['GET', '/categories/99999', 400, 'rest_invalid_param'],
      ['GET', '/nothing-here', 404, 'rest_no_route'],
      ['POST', '/events', 401, 'rest_forbidden'],
      ['DELETE', '/events/16', 401, 'rest_forbidden'],
    ];
    for (const [method, path, status, code] of cases) {
      const answer = await call(method, path);
      expect(answer.status, `${method} ${path}`).toBe(status);
      expect(answer.body, `${method} ${path}`).toMatchObject({
        code,
        message: expect.any(String),
        data: { status },
      });
    }
    const invalid = await call('GET', '/events?page=0');
    expect(invalid.body).toMatchObject({
      message: 'Invalid parameter(s): page',
      data: { params: { page: 'Invalid parameter.' } },
    });
  });

  it('authenticates Basic auth with application passwords: 401 for a bad password or user, whatever the route', async () => {
    const bad = await call('GET', '/events', { auth: basic('deckhand', 'wrong') });
    expect(bad).toMatchObject({ status: 401, body: { code: 'incorrect_password' } });
    const nobody = await call('GET', '/events', { auth: basic('nobody', 'x') });
    expect(nobody).toMatchObject({ status: 401, body: { code: 'invalid_username' } });
    const subscriber = basic(
      SANDBOX_CALENDAR_USERS.subscriber.user,
      SANDBOX_CALENDAR_USERS.subscriber.appPassword,
    );
    const forbidden = await call('POST', '/events', { auth: subscriber, json: { title: 'x' } });
    expect(forbidden).toMatchObject({
      status: 403,
      body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.' },
    });
  });

  it('creates from a form-encoded body too (201), requires title and dates, and trashes on DELETE', async () => {
    const missing = await call('POST', '/events', { auth: EDITOR, json: { title: 'x' } });
    expect(missing).toMatchObject({
      status: 400,
      body: { code: 'rest_missing_callback_param', data: { params: ['start_date', 'end_date'] } },
    });
    const created = await call('POST', '/events', {
      auth: EDITOR,
      form: 'title=Form+event&start_date=2026-12-10+18%3A00&end_date=2026-12-10+19%3A00&categories%5B%5D=meetup&venue=10',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Form event',
      venue: { id: 10, venue: 'Main Hall' },
      status: 'publish',
    });
    const id = created.body.id as number;
    const trashed = await call('DELETE', `/events/${id}`, { auth: EDITOR });
    expect(trashed).toMatchObject({ status: 200, body: { id, status: 'trash' } });
    expect(await call('DELETE', `/events/${id}`, { auth: EDITOR })).toMatchObject({
      status: 410,
      body: { code: 'event-is-in-trash' },
    });
    expect(await call('GET', `/events/${id}`)).toMatchObject({
      status: 403,
      body: { code: 'event-no-longer-available' },
    });
    // WordPress renamed the slug: the old one is no event's any more (is_event_slug → 400).
    expect(await call('GET', '/events/by-slug/form-event')).toMatchObject({
      status: 400,
      body: { code: 'rest_invalid_param', data: { params: { slug: expect.any(String) } } },
    });
    expect(await call('GET', '/events/by-slug/form-event__trashed')).toMatchObject({
      status: 403,
      body: { code: 'event-no-longer-available' },
    });
  });

  it('sends term totals as strings (copied from X-WP-Total) and hides empty terms by default', async () => {
    const { body, headers } = await call('GET', '/categories');
    expect(typeof body.total).toBe('string');
    expect(headers.get('x-wp-total')).toBe(body.total);
    expect((body.categories as { name: string }[]).map((c) => c.name)).not.toContain('Conference');
    const all = await call('GET', '/categories?hide_empty=0');
    expect((all.body.categories as { name: string }[]).map((c) => c.name)).toContain('Conference');
  });

  it('drops empty fields of venues, and serves the WordPress index and the discovery headers', async () => {
    const { body } = await call('GET', '/venues/11');
    expect(body).toMatchObject({ id: 11, venue: 'Community Room' });
    expect(body).not.toHaveProperty('zip');
    const index = await fetch(calendar.sandbox.restRoot).then((r) => r.json());
    expect(index).toMatchObject({
      timezone_string: 'Europe/Berlin',
      namespaces: expect.arrayContaining(['tribe/events/v1']),
    });
    const page = await fetch(`${calendar.sandbox.siteUrl}/event/monthly-meetup/`);
    expect(page.headers.get('x-tec-api-root')).toBe(calendar.api);
  });
});
