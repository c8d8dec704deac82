/**
 * Updates that keep what they do not change, trashed slugs, image ids and refused passwords: the
 * calendar client against the emulator, which resets absent fields on update as the-events-calendar
 * 6.17.2 does (test/sandbox/calendar-plugin-contract.test.ts).
 */

import { SANDBOX_CALENDAR_USERS } from '@deckhand/sandbox/calendar';
import type { EventPost, OrganizerPost, VenuePost } from '@deckhand/sandbox/calendar/state';
import { describe, expect, it } from 'vitest';
import { NotFoundError, UpstreamError } from '../../src/core/errors';
import { EventSchema, eventUpdateBody, InTrashError } from '../../src/services/calendar';
import { useCalendarClient } from '../support/calendar-client';
import { dayFromNow } from '../support/relative-dates';

const rig = useCalendarClient();

/** Every stored field of an event but the ones an update may touch (title, modified). */
function storedFields(id: number) {
  const { title: _title, modified: _modified, ...rest } = rig.sandbox.state.post('event', id) as EventPost;
  return structuredClone(rest);
}

async function fullEvent(title: string) {
  const venue = await rig.editor.venues.create({ venue: `${title} venue` });
  const organizer = await rig.editor.organizers.create({ organizer: `${title} organizer` });
  return rig.editor.events.create({
    title,
    description: 'Everything set',
    excerpt: 'Short',
    status: 'draft',
    timezone: 'America/New_York',
    start_date: '2026-12-03 18:00:00',
    end_date: '2026-12-03 20:30:00',
    cost: '12',
    website: 'https://example.org/own-site',
    image: 22,
    venue: venue.id,
    organizer: [organizer.id],
    categories: ['Write-back'],
    tags: ['kept'],
    featured: true,
    sticky: true,
    show_map: false,
    show_map_link: false,
    hide_from_listings: true,
  });
}

describe('an update changes one field and keeps every other', () => {
  it('keeps draft, zone, dates, cost, website, organizer, image and every flag of a timed event', async () => {
    const event = await fullEvent('Timed full');
    const before = storedFields(event.id);
    // The fields as stored (a control that they are not the defaults an update would fall back to).
    expect(before).toMatchObject({
      status: 'draft',
      timezone: 'America/New_York',
      allDay: false,
      cost: '12',
      website: 'https://example.org/own-site',
      image: { id: 22 },
      featured: true,
      sticky: true,
      showMap: false,
      showMapLink: false,
      hideFromListings: true,
    });
    expect(before.organizers).toHaveLength(1);
    const updated = await rig.editor.events.update(event.id, { title: 'Timed full, renamed' });
    expect(updated.title).toBe('Timed full, renamed');
    const after = storedFields(event.id);
    for (const key of Object.keys(before) as (keyof typeof before)[]) {
      expect(after[key], key).toEqual(before[key]);
    }
    expect(updated).toMatchObject({
      status: 'draft',
      timezone: 'America/New_York',
      startDate: '2026-12-03 18:00:00',
      utcStartDate: '2026-12-03 23:00:00',
      cost: '12',
      website: 'https://example.org/own-site',
      image: { id: 22 },
      featured: true,
      sticky: true,
    });
  });

  it('keeps an all-day event all-day, and the same body sent alone would have reset it (positive control)', async () => {
    const event = await rig.editor.events.create({
      title: 'All-day full',
      start_date: '2026-12-12',
      end_date: '2026-12-13',
      all_day: true,
      status: 'draft',
      timezone: 'America/New_York',
    });
    const before = storedFields(event.id);
    await rig.editor.events.update(`all-day-full`, { cost: '3' });
    const after = storedFields(event.id);
    expect(after.cost).toBe('3');
    for (const key of Object.keys(before) as (keyof typeof before)[]) {
      if (key !== 'cost' && key !== 'website') expect(after[key], key).toEqual(before[key]);
    }
    // No website of its own before or after: any update stores `_EventURL` (`filter_var( null )` is
    // ''), so "never set" becomes "empty" — the plugin offers no way to keep it unset.
    expect(after.website ?? '').toBe(before.website ?? '');
    // Control: the plugin's own reaction to `{cost}` alone — the resets the client guards against.
    const raw = await fetch(`${rig.sandbox.restRoot}/tribe/events/v1/events/${event.id}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${SANDBOX_CALENDAR_USERS.editor.user}:${SANDBOX_CALENDAR_USERS.editor.appPassword}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ cost: '4' }),
    });
    expect(raw.status).toBe(200);
    expect(storedFields(event.id)).toMatchObject({
      status: 'publish',
      allDay: false,
      timezone: 'Europe/Berlin',
    });
  });

  it('keeps a venue’s draft status, image, map switches and state/province, and an organizer’s status and image', async () => {
    const venue = await rig.editor.venues.create({
      venue: 'Kept venue',
      status: 'draft',
      image: 31,
      show_map: false,
      show_map_link: false,
      city: 'Potsdam',
      province: 'Brandenburg',
    });
    const beforeVenue = structuredClone(rig.sandbox.state.post('venue', venue.id) as VenuePost);
    expect(beforeVenue).toMatchObject({ status: 'draft', showMap: false, image: { id: 31 } });
    await rig.editor.venues.update(venue.id, { phone: '+49 331 1' });
    const afterVenue = rig.sandbox.state.post('venue', venue.id) as VenuePost;
    expect(afterVenue).toMatchObject({
      status: 'draft',
      image: { id: 31 },
      showMap: false,
      showMapLink: false,
      details: { ...beforeVenue.details, phone: '+49 331 1' },
    });
    const organizer = await rig.editor.organizers.create({
      organizer: 'Kept organizer',
      status: 'draft',
      image: 32,
    });
    await rig.editor.organizers.update(organizer.id, { phone: '1' });
    expect(rig.sandbox.state.post('organizer', organizer.id) as OrganizerPost).toMatchObject({
      status: 'draft',
      image: { id: 32 },
      details: { phone: '1' },
    });
  });
});

describe('trashed slugs, refused passwords', () => {
  it('a second cancel by slug says "already in the trash", a read says "in the trash", an unknown slug does not exist', async () => {
    const event = await rig.editor.events.create({
      title: 'Slug trash',
      start_date: '2026-12-20 10:00',
      end_date: '2026-12-20 11:00',
    });
    expect((await rig.editor.events.delete('slug-trash')).id).toBe(event.id);
    await expect(rig.editor.events.delete('slug-trash')).rejects.toSatisfy(
      (error) =>
        error instanceof InTrashError && error.message === 'Event slug-trash is already in the trash.',
    );
    await expect(rig.editor.events.get('slug-trash')).rejects.toThrow('Event slug-trash is in the trash.');
    await expect(rig.editor.events.get('never-was')).rejects.toSatisfy(
      (error) =>
        error instanceof NotFoundError && error.message === 'Event never-was does not exist on the calendar.',
    );
  });

  it('with a refused application password, public reads go without it (and say so); writes are refused', async () => {
    // Tomorrow, whatever today is: a list without dates shows upcoming events only.
    const day = dayFromNow(1);
    const event = await rig.editor.events.create({
      title: 'Public read',
      start_date: `${day} 10:00`,
      end_date: `${day} 11:00`,
    });
    const notices: string[] = [];
    const revoked = rig.service
      .noticing((notice) => notices.push(notice))
      .withCredentials({
        user: SANDBOX_CALENDAR_USERS.editor.user,
        appPassword: 'revo kedp assw ord0 0000 0000',
      });
    expect((await revoked.events.get(event.id)).title).toBe('Public read');
    expect((await revoked.events.list({ search: 'Public read' })).items.map((e) => e.id)).toContain(event.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(
      `The calendar site refused the application password of ${SANDBOX_CALENDAR_USERS.editor.user} (revoked or mistyped?), so this was read without it`,
    );
    expect(notices[0]).toContain('/wp-admin/authorize-application.php?app_name=Deckhand');
    const error = await revoked.events
      .update(event.id, { title: 'Changed with a refused password' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(401);
    expect((error as UpstreamError).message).toContain(
      `The calendar site refused the credentials of ${SANDBOX_CALENDAR_USERS.editor.user}`,
    );
    expect((await rig.service.anonymous().events.get(event.id)).title).toBe('Public read');
    expect(JSON.stringify([notices, (error as Error).message])).not.toContain('revo kedp');
  });
});

describe('eventUpdateBody', () => {
  const apiEvent = {
    id: 7,
    status: 'pending',
    url: 'https://cal.example/event/x/',
    title: 'X',
    slug: 'x',
    all_day: false,
    start_date: '2026-12-01 18:00:00',
    end_date: '2026-12-01 19:00:00',
    utc_start_date: '2026-12-01 17:00:00',
    utc_end_date: '2026-12-01 18:00:00',
    timezone: 'Europe/Berlin',
    cost: '€5 &amp; up',
    website: 'https://example.org/?a=1&amp;b=2',
    image: { id: 22, url: 'https://cal.example/22.jpg' },
    venue: [
      { id: 3, venue: 'V' },
      { id: 4, venue: 'W' },
    ],
    organizer: [{ id: 5, organizer: 'O' }],
    show_map: true,
    show_map_link: false,
    hide_from_listings: false,
    sticky: true,
    featured: false,
  };

  it('sends back the stored values unescaped, the image id as a string, and puts the changes on top', () => {
    const body = eventUpdateBody(EventSchema.parse(apiEvent), { title: 'Y', image: 23 });
    expect(body).toEqual({
      title: 'Y',
      status: 'pending',
      all_day: false,
      timezone: 'Europe/Berlin',
      start_date: '2026-12-01 18:00:00',
      end_date: '2026-12-01 19:00:00',
      cost: '€5 & up',
      website: 'https://example.org/?a=1&b=2',
      image: '23',
      venue: [3, 4],
      organizer: [5],
      show_map: true,
      show_map_link: false,
      hide_from_listings: false,
      sticky: true,
      featured: false,
    });
  });

  it('does not store the permalink the API shows for an event without a website of its own', () => {
    const body = eventUpdateBody(EventSchema.parse({ ...apiEvent, website: apiEvent.url, image: false }), {});
    expect(body.website).toBe('');
    expect(body).not.toHaveProperty('image');
  });
});
