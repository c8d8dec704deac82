/**
 * The calendar emulator's term, venue/organizer delete and list-status behaviour against the real
 * plugin: the-events-calendar 6.17.2 (commit 31784e78), tribe-common 6.12.2 (commit 90edbc0b) and
 * WordPress core (wordpress-develop: class-wp-rest-terms-controller.php, taxonomy.php, post.php).
 * Each test names the file and function it was read in. Raw HTTP, as the plugin would be called.
 */

import { describe, expect, it } from 'vitest';
import { type Body, type CalendarAnswer, EDITOR, useCalendarApi } from '../support/calendar-api';

const calendar = useCalendarApi({ seed: true, now: () => Date.parse('2026-11-23T12:00:00Z') });
const { call } = calendar;

/** An answer without its headers, to compare whole. */
const statusAndBody = ({ status, body }: CalendarAnswer) => ({ status, body });

const termId = async (collection: string, name: string) => {
  const { body } = await call('GET', `/${collection}?hide_empty=0&per_page=50`);
  return ((body[collection] as Body[]).find((t) => t.name === name) as Body).id as number;
};

describe('single term routes (Single_Category.php / Single_Tag.php READ_args: is_event_category, is_post_tag)', () => {
  it('answers an id that is no term of the taxonomy with 400 rest_invalid_param id, on read, update and delete', async () => {
    const tag = await termId('tags', 'beginner');
    for (const [method, path] of [
      ['GET', '/categories/99999'],
      ['POST', '/categories/99999'],
      ['DELETE', '/categories/99999'],
      ['GET', `/categories/${tag}`],
    ] as const) {
      const answer = await call(method, path, {
        auth: EDITOR,
        json: method === 'POST' ? { name: 'x' } : undefined,
      });
      expect(answer, `${method} ${path}`).toMatchObject({
        status: 400,
        body: { code: 'rest_invalid_param', data: { status: 400, params: { id: 'Invalid parameter.' } } },
      });
    }
  });
});

describe('term updates (Term_Single_Base.php update() → WP_REST_Terms_Controller::update_item → wp_update_term)', () => {
  it('refuses an explicit slug another term has: duplicate_term_slug, a WP_Error without status (500, data null)', async () => {
    const meetup = await termId('categories', 'Meetup');
    const answer = await call('POST', `/categories/${meetup}`, { auth: EDITOR, json: { slug: 'workshop' } });
    expect(statusAndBody(answer)).toEqual({
      status: 500,
      body: {
        code: 'duplicate_term_slug',
        message: 'The slug &#8220;workshop&#8221; is already in use by another term.',
        data: null,
      },
    });
    const kept = await call('GET', `/categories/${meetup}`);
    expect(kept.body.slug).toBe('meetup');
  });

  it('keeps the slug on a rename', async () => {
    const talk = await termId('categories', 'Talk');
    const answer = await call('POST', `/categories/${talk}`, { auth: EDITOR, json: { name: 'Talks' } });
    expect(answer.body).toMatchObject({ name: 'Talks', slug: 'talk' });
  });

  it('refuses empty strings (tribe-common Validator/Base.php is_string: ! empty( $value ))', async () => {
    const talk = await termId('categories', 'Talks');
    for (const field of ['description', 'slug', 'name']) {
      const answer = await call('POST', `/categories/${talk}`, { auth: EDITOR, json: { [field]: '' } });
      expect(answer, field).toMatchObject({
        status: 400,
        body: { code: 'rest_invalid_param', data: { params: { [field]: 'Invalid parameter.' } } },
      });
    }
  });

  it('takes a category parent that exists, refuses 0 (is_event_category( 0 ) is false)', async () => {
    const [talk, workshop] = [await termId('categories', 'Talks'), await termId('categories', 'Workshop')];
    const moved = await call('POST', `/categories/${talk}`, { auth: EDITOR, json: { parent: workshop } });
    expect(moved.body).toMatchObject({ parent: workshop });
    const zero = await call('POST', `/categories/${talk}`, { auth: EDITOR, json: { parent: 0 } });
    expect(zero).toMatchObject({
      status: 400,
      body: { code: 'rest_invalid_param', data: { params: { parent: 'Invalid parameter.' } } },
    });
  });

  it('answers a tag parent with 400 rest_taxonomy_not_hierarchical, on create and update', async () => {
    const tag = await termId('tags', 'beginner');
    const expected = {
      status: 400,
      body: {
        code: 'rest_taxonomy_not_hierarchical',
        message: 'Cannot set parent term, taxonomy is not hierarchical.',
        data: { status: 400 },
      },
    };
    expect(statusAndBody(await call('POST', `/tags/${tag}`, { auth: EDITOR, json: { parent: 1 } }))).toEqual(
      expected,
    );
    expect(
      statusAndBody(await call('POST', '/tags', { auth: EDITOR, json: { name: 'new one', parent: 1 } })),
    ).toEqual(expected);
  });

  it('deletes for good and answers with the term as it was; its events lose it', async () => {
    const js = await termId('tags', 'javascript');
    const answer = await call('DELETE', `/tags/${js}`, { auth: EDITOR });
    expect(answer).toMatchObject({ status: 200, body: { id: js, name: 'javascript' } });
    expect(await call('GET', `/tags/${js}`)).toMatchObject({ status: 400 });
    const events = calendar.sandbox.state.postsOf('event').filter((e) => e.tags.includes(js));
    expect(events).toEqual([]);
  });
});

describe('list status (Archive_Base.php filter_post_status_list)', () => {
  it('takes registered statuses from an editor, refuses `any` and unknown ones', async () => {
    const trash = await call('GET', '/events?status=trash', { auth: EDITOR });
    expect((trash.body.events as Body[]).map((e) => e.status)).toEqual(['trash']);
    for (const status of ['any', 'bogus', 'publish,any']) {
      const answer = await call('GET', `/events?status=${status}`, { auth: EDITOR });
      expect(answer, status).toMatchObject({
        status: 400,
        body: { code: 'rest_invalid_param', data: { params: { status: 'Invalid parameter.' } } },
      });
    }
  });

  it('gives an anonymous reader exactly `publish`, nothing else', async () => {
    expect((await call('GET', '/events?status=publish')).status).toBe(200);
    for (const status of ['draft', 'publish,publish', 'publish,draft']) {
      expect((await call('GET', `/events?status=${status}`)).status, status).toBe(400);
    }
    expect((await call('GET', '/venues?status=draft')).status).toBe(400);
  });

  it('filters events by organizer ids (Validator/Base.php is_organizer_id_list: every id an organizer)', async () => {
    const { body } = await call('GET', '/organizers');
    const ada = ((body.organizers as Body[]).find((o) => o.organizer === 'Ada Lovelace') as Body)
      .id as number;
    const listed = await call('GET', `/events?organizer=${ada}&per_page=50`);
    const events = listed.body.events as Body[];
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => (e.organizer as Body[]).some((o) => o.id === ada))).toBe(true);
    expect((await call('GET', `/events?organizer=${ada},99999`)).status).toBe(400);
  });
});

describe('venue and organizer delete (Single_Venue.php / Single_Organizer.php delete())', () => {
  it('trashes, answers the venue, then 410 venue-is-in-trash; events keep the venue id (tec_get_venue_ids)', async () => {
    const { body } = await call('GET', '/venues?search=Main');
    const hall = ((body.venues as Body[])[0] as Body).id as number;
    const first = await call('DELETE', `/venues/${hall}`, { auth: EDITOR });
    expect(first).toMatchObject({ status: 200, body: { id: hall, status: 'trash' } });
    const second = await call('DELETE', `/venues/${hall}`, { auth: EDITOR });
    expect(second).toMatchObject({ status: 410, body: { code: 'venue-is-in-trash' } });
    expect(calendar.sandbox.state.postsOf('event').some((e) => e.venues.includes(hall))).toBe(true);
    // A trashed venue is still a venue: the events filter takes its id.
    expect((await call('GET', `/events?venue=${hall}`, { auth: EDITOR })).status).toBe(200);
  });
});
