/**
 * The calendar client against the calendar sandbox over real HTTP: creating, updating and trashing
 * events, credentials and rights, venues, organizers, categories and tags, with each documented error.
 */

import { SANDBOX_CALENDAR_USERS } from '@deckhand/sandbox/calendar';
import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionDenied, type UpstreamError, UsageError } from '../../src/core/errors';
import type { CalendarClient } from '../../src/services/calendar';
import { useCalendarClient } from '../support/calendar-client';

const rig = useCalendarClient();
const { eventId } = rig;

const { editor: EDITOR, contributor: CONTRIBUTOR, subscriber: SUBSCRIBER } = SANDBOX_CALENDAR_USERS;

describe('events: create, update, trash', () => {
  it('creates an event (201) with a venue, organizers, categories, tags and the other fields', async () => {
    const event = await rig.editor.events.create({
      title: 'Hack night',
      start_date: '2026-12-01 18:00:00',
      end_date: '2026-12-01 21:00:00',
      venue: 10,
      organizer: [eventOrganizer('Ada Lovelace')],
      categories: ['Meetup', 'Brand New Category'],
      tags: ['javascript'],
      cost: '5',
      website: 'https://example.org/hack',
      description: 'Bring a laptop.',
      featured: true,
    });
    expect(event).toMatchObject({
      title: 'Hack night',
      status: 'publish',
      startDate: '2026-12-01 18:00:00',
      utcStartDate: '2026-12-01 17:00:00',
      venues: [expect.objectContaining({ name: 'Main Hall' })],
      organizers: [expect.objectContaining({ name: 'Ada Lovelace' })],
      cost: '5',
      website: 'https://example.org/hack',
      featured: true,
      url: `${rig.sandbox.siteUrl}/event/hack-night/`,
    });
    expect(event.categories.map((c) => c.name)).toEqual(['Meetup', 'Brand New Category']);
    expect(rig.sandbox.state.post('event', event.id)?.title).toBe('Hack night');
  });

  it('reads dates in the event’s time zone, and makes all-day events whole days', async () => {
    const ny = await rig.editor.events.create({
      title: 'NY call',
      start_date: '2026-12-02 09:00:00',
      end_date: '2026-12-02 10:00:00',
      timezone: 'America/New_York',
    });
    expect(ny).toMatchObject({
      timezone: 'America/New_York',
      startDate: '2026-12-02 09:00:00',
      utcStartDate: '2026-12-02 14:00:00',
    });
    const allDay = await rig.editor.events.create({
      title: 'Retreat',
      start_date: '2026-12-05',
      end_date: '2026-12-06',
      all_day: true,
    });
    expect(allDay).toMatchObject({
      allDay: true,
      startDate: '2026-12-05 00:00:00',
      endDate: '2026-12-06 23:59:59',
    });
  });

  it('creates a venue given inline, de-duplicated', async () => {
    const first = await rig.editor.events.create({
      title: 'Pop-up',
      start_date: '2026-12-03 18:00:00',
      end_date: '2026-12-03 19:00:00',
      venue: { venue: 'Pop-up Store', city: 'Berlin' },
    });
    const second = await rig.editor.events.create({
      title: 'Pop-up again',
      start_date: '2026-12-04 18:00:00',
      end_date: '2026-12-04 19:00:00',
      venue: { venue: 'Pop-up Store', city: 'Berlin' },
    });
    expect(second.venues[0]?.id).toBe(first.venues[0]?.id);
    await expect(
      rig.editor.events.create({
        title: 'x',
        start_date: '2026-12-04',
        end_date: '2026-12-04',
        venue: { id: eventId('Monthly Meetup') },
      }),
    ).rejects.toMatchObject({ status: 400, message: 'The provided linked post ID is not valid' });
    await expect(
      rig.editor.events.create({
        title: 'x',
        start_date: '2026-12-04',
        end_date: '2026-12-04',
        venue: { city: 'Nowhere' },
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: 'The venue could not be created from the provided data',
    });
  });

  it('refuses missing and invalid fields with the parameter names, creating nothing', async () => {
    const before = rig.sandbox.state.posts.size;
    const create = rig.editor.events.create.bind(rig.editor.events) as (fields: object) => Promise<unknown>;
    await expect(create({ title: 'No dates' })).rejects.toMatchObject({
      message: 'The calendar needs start_date, end_date.',
      hint: 'Nothing was changed.',
    });
    await expect(create({ title: 'No dates' })).rejects.toBeInstanceOf(UsageError);
    await expect(create({ title: 'x', start_date: 'someday', end_date: '2026-12-01' })).rejects.toThrow(
      /refused the value of start_date/,
    );
    // (An end before the start is not refused: see test/sandbox/calendar-plugin-contract.test.ts.)
    await expect(
      create({ title: 'x', start_date: '2026-12-01', end_date: '2026-12-01', timezone: 'Mars/Olympus' }),
    ).rejects.toThrow(/refused the value of timezone/);
    await expect(
      create({ title: 'x', start_date: '2026-12-01', end_date: '2026-12-01', venue: 99999 }),
    ).rejects.toThrow(/refused the value of venue/);
    expect(rig.sandbox.state.posts.size).toBe(before);
  });

  it('updates an event by id and by slug', async () => {
    const event = await rig.editor.events.create({
      title: 'Draft me',
      start_date: '2026-12-07 18:00',
      end_date: '2026-12-07 19:00',
    });
    const byId = await rig.editor.events.update(event.id, { title: 'Renamed', status: 'draft' });
    expect(byId).toMatchObject({ title: 'Renamed', status: 'draft' });
    const bySlug = await rig.editor.events.update(byId.slug, {
      start_date: '2026-12-07 20:00:00',
      end_date: '2026-12-07 22:00:00',
    });
    expect(bySlug).toMatchObject({ id: event.id, startDate: '2026-12-07 20:00:00' });
    await expect(rig.editor.events.update(99999, { title: 'x' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('moves an event to the trash on delete; a second delete says it is already there', async () => {
    const event = await rig.editor.events.create({
      title: 'Doomed',
      start_date: '2026-12-08 18:00',
      end_date: '2026-12-08 19:00',
    });
    await expect(rig.editor.events.delete(event.id)).resolves.toMatchObject({
      id: event.id,
      status: 'trash',
    });
    expect(rig.sandbox.state.post('event', event.id)?.status).toBe('trash');
    await expect(rig.editor.events.delete(event.id)).rejects.toMatchObject({
      status: 410,
      message: `Event ${event.id} is already in the trash.`,
    });
    await expect(rig.editor.events.get(event.id)).rejects.toThrow(`Event ${event.id} is in the trash.`);
    const bySlug = await rig.editor.events.create({
      title: 'Slug doomed',
      start_date: '2026-12-08 18:00',
      end_date: '2026-12-08 19:00',
    });
    await expect(rig.editor.events.delete('slug-doomed')).resolves.toMatchObject({
      id: bySlug.id,
      status: 'trash',
    });
  });
});

describe('credentials and rights', () => {
  const write = (client: CalendarClient) =>
    client.events.create({ title: 'Rights', start_date: '2026-12-09 18:00', end_date: '2026-12-09 19:00' });

  it('refuses writes without credentials before calling, naming the link for an application password', async () => {
    const error = await write(rig.anonymous).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDenied);
    expect((error as PermissionDenied).hint).toContain(
      `${rig.sandbox.siteUrl}/wp-admin/authorize-application.php`,
    );
  });

  it('says which link is needed when the site refuses the password or the user, never showing the password', async () => {
    const wrong = rig.service.withCredentials({
      user: EDITOR.user,
      appPassword: 'abcd efgh ijkl mnop qrst uvwx',
    });
    const error = (await write(wrong).catch((e: unknown) => e)) as UpstreamError;
    expect(error).toMatchObject({ status: 401 });
    expect(error.message).toBe(
      'The calendar site refused the credentials of deckhand: The provided password is an invalid application password.',
    );
    expect(error.hint).toContain('/wp-admin/authorize-application.php?app_name=Deckhand');
    expect(`${error.message} ${error.hint}`).not.toContain('abcd');
    const nobody = rig.service.withCredentials({ user: 'nobody', appPassword: EDITOR.appPassword });
    await expect(write(nobody)).rejects.toThrow(/refused the credentials of nobody: Unknown username/);
  });

  it('says when the site saw no credentials although they were sent (a server dropping the header)', async () => {
    rig.sandbox.controls.setStripsAuthorization(true);
    try {
      await expect(write(rig.editor)).rejects.toMatchObject({
        status: 401,
        message:
          'The calendar site treated Deckhand as logged out although it sent the credentials of deckhand.',
        hint: expect.stringContaining('Authorization header'),
      });
    } finally {
      rig.sandbox.controls.setStripsAuthorization(false);
    }
  });

  it('accepts the password with or without its spaces', async () => {
    const compact = rig.service.withCredentials({
      user: EDITOR.user,
      appPassword: EDITOR.appPassword.replace(/ /g, ''),
    });
    await expect(write(compact)).resolves.toMatchObject({ title: 'Rights' });
  });

  it('sends a contributor’s event to review (a draft by default), and refuses a subscriber with 403', async () => {
    const contributor = rig.service.withCredentials(CONTRIBUTOR);
    await expect(write(contributor)).resolves.toMatchObject({ status: 'draft' });
    await expect(
      contributor.events.create({
        title: 'Publish me',
        start_date: '2026-12-09',
        end_date: '2026-12-09',
        status: 'publish',
      }),
    ).resolves.toMatchObject({ status: 'pending' });
    const subscriber = rig.service.withCredentials(SUBSCRIBER);
    await expect(write(subscriber)).rejects.toMatchObject({
      status: 403,
      message: 'The calendar account sam is not allowed to create events.',
    });
  });
});

describe('venues and organizers', () => {
  it('lists (with search), reads by id and slug, creates (de-duplicated), updates and trashes venues', async () => {
    const studios = await rig.anonymous.venues.list({ search: 'studio' });
    expect(studios.items.map((v) => `${v.name}/${v.city}`)).toEqual(['Studio/Berlin', 'Studio/Hamburg']);
    await expect(rig.anonymous.venues.get(10)).resolves.toMatchObject({ name: 'Main Hall', zip: '10115' });
    await expect(rig.anonymous.venues.get('main-hall')).resolves.toMatchObject({ id: 10 });
    const created = await rig.editor.venues.create({ venue: 'Garage', city: 'Leipzig' });
    await expect(rig.editor.venues.create({ venue: 'Garage', city: 'Leipzig' })).resolves.toMatchObject({
      id: created.id,
    });
    await expect(rig.editor.venues.update(created.slug as string, { phone: '+49 1' })).resolves.toMatchObject(
      {
        phone: '+49 1',
      },
    );
    await expect(rig.editor.venues.update(created.id, { city: 'Halle' })).resolves.toMatchObject({
      city: 'Halle',
    });
    await expect(rig.editor.venues.delete(created.id)).resolves.toMatchObject({ status: 'trash' });
    await expect(rig.editor.venues.delete(created.id)).rejects.toMatchObject({
      status: 410,
      message: `Venue ${created.id} is already in the trash.`,
    });
    await expect(rig.anonymous.venues.get(99999)).rejects.toThrow(
      new NotFoundError('Venue 99999 does not exist on the calendar.'),
    );
    await expect(rig.editor.venues.create({ venue: ' ' })).rejects.toThrow(/refused the value of venue/);
    const hidden = await rig.editor.venues.create({ venue: 'Secret Cellar', status: 'draft' });
    await expect(rig.anonymous.venues.get(hidden.id)).rejects.toMatchObject({
      status: 403,
      message: `Venue ${hidden.id} is not published, and the calendar account Deckhand uses may not read it.`,
    });
  });

  it('does the same for organizers', async () => {
    const all = await rig.anonymous.organizers.list();
    expect(all.items.map((o) => o.name)).toEqual(['Ada Lovelace', 'Deckhand Meetup Team']);
    const created = await rig.editor.organizers.create({
      organizer: 'Grace Hopper',
      email: 'grace@example.org',
    });
    await expect(rig.anonymous.organizers.get(created.id)).resolves.toMatchObject({
      name: 'Grace Hopper',
      email: 'grace@example.org',
    });
    await expect(rig.anonymous.organizers.get('grace-hopper')).resolves.toMatchObject({ id: created.id });
    await expect(rig.editor.organizers.update(created.id, { phone: '123' })).resolves.toMatchObject({
      phone: '123',
    });
    await expect(rig.editor.organizers.delete('grace-hopper')).resolves.toMatchObject({ status: 'trash' });
    await expect(rig.editor.organizers.create({ organizer: 'Bad', email: 'not-an-email' })).rejects.toThrow(
      /refused the value of email/,
    );
    await expect(rig.anonymous.organizers.list({ page: 5 })).rejects.toThrow(/no such page of organizers/);
  });
});

describe('categories and tags', () => {
  it('lists categories (empty ones hidden by default; totals sent as strings), reads, creates, updates and deletes', async () => {
    const visible = await rig.anonymous.categories.list();
    expect(visible.items.map((c) => c.name)).not.toContain('Conference');
    expect(visible.total).toBe(visible.items.length);
    const all = await rig.anonymous.categories.list({ hide_empty: false });
    expect(all.items.map((c) => c.name)).toContain('Conference');
    const created = await rig.editor.categories.create({ name: 'Hackathon', description: 'Long nights' });
    expect(created).toMatchObject({ name: 'Hackathon', slug: 'hackathon', taxonomy: 'tribe_events_cat' });
    await expect(rig.editor.categories.create({ name: 'Hackathon' })).rejects.toMatchObject({
      status: 400,
      message: 'A term with the name provided already exists in this taxonomy.',
    });
    await expect(rig.anonymous.categories.get(created.id)).resolves.toMatchObject({ name: 'Hackathon' });
    await expect(rig.editor.categories.update(created.id, { name: 'Hack-a-thon' })).resolves.toMatchObject({
      name: 'Hack-a-thon',
    });
    await expect(rig.editor.categories.delete(created.id)).resolves.toMatchObject({ id: created.id });
    await expect(rig.anonymous.categories.get(created.id)).rejects.toThrow(
      new NotFoundError(`Category ${created.id} does not exist on the calendar.`),
    );
    await expect(
      rig.service.withCredentials(CONTRIBUTOR).categories.create({ name: 'Nope' }),
    ).rejects.toMatchObject({ status: 403 });
  });

  it('lists, creates and deletes tags', async () => {
    const created = await rig.editor.tags.create({ name: 'rust' });
    const all = await rig.anonymous.tags.list({ hide_empty: false });
    expect(all.items.map((t) => t.name)).toEqual(expect.arrayContaining(['beginner', 'javascript', 'rust']));
    await expect(rig.editor.tags.update(created.id, { description: 'crabs' })).resolves.toMatchObject({
      description: 'crabs',
    });
    await expect(rig.editor.tags.delete(created.id)).resolves.toMatchObject({ name: 'rust' });
    await expect(rig.anonymous.tags.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

function eventOrganizer(name: string): number {
  return rig.sandbox.state.postsOf('organizer').find((o) => o.name === name)?.id as number;
}
