/**
 * Event fields of a create or update request, validated as the plugin's `validate_callback`s do
 * before anything is written (a bad field is `400 rest_invalid_param` and changes nothing):
 * dates read in the event's `timezone` (else the site's), terms by id or name (names that do not
 * exist are created, as `Tribe__Terms::translate_terms_to_ids` does), venues and organizers by id,
 * `{id}` or inline fields (created, de-duplicated).
 *
 * Emulator choices where the sources say nothing: an end before the start is refused as an invalid
 * `end_date`; `image` as a URL is "side-loaded" into a fake attachment.
 */
import { DateTime } from 'luxon';
import { createLinked, type LinkedType, readLinkedFields } from './linked-fields';
import { type CalendarState, type EventPost, slugify, type Taxonomy, type WpUser } from './state';
import { parseTime, validZone } from './strtotime';
import { listParam, POST_STATUSES, positiveInt, scaleBackStatus, truthy } from './wp';

/** The outcome: the changes to apply, or why not. */
export type EventChanges =
  | { ok: true; apply(event: EventPost): void }
  | {
      ok: false;
      code:
        | 'rest_invalid_param'
        | 'invalid-linked-post-id'
        | 'could-not-create-venue'
        | 'could-not-create-organizer';
      params: string[];
    };

const URLISH = /^https?:\/\/[^\s]+$/i;

/** A reference to a linked post in an event body, resolved (without creating anything yet). */
type LinkedRef = { id: number } | { create: Record<string, unknown> };

function linkedRefs(
  state: CalendarState,
  type: LinkedType,
  value: unknown,
): LinkedRef[] | 'invalid' | 'wrong-type' | 'bad-data' {
  const items = Array.isArray(value) ? value : [value];
  const refs: LinkedRef[] = [];
  for (const item of items) {
    const id = positiveInt(item);
    if (id !== undefined) {
      if (!state.post(type, id)) return 'invalid';
      refs.push({ id });
    } else if (typeof item === 'object' && item !== null) {
      const object = item as Record<string, unknown>;
      if (object.id !== undefined) {
        const linked = positiveInt(object.id);
        if (linked === undefined || !state.post(type, linked)) return 'wrong-type';
        refs.push({ id: linked });
      } else {
        const fields = readLinkedFields(type, object);
        if (!fields.ok || !fields.name) return 'bad-data';
        refs.push({ create: object });
      }
    } else {
      return 'invalid';
    }
  }
  return refs;
}

function termIds(state: CalendarState, taxonomy: Taxonomy, value: unknown): (number | string)[] | 'invalid' {
  const out: (number | string)[] = [];
  for (const item of listParam(value)) {
    if (/^\d+$/.test(item)) {
      const term = state.terms.get(Number(item));
      if (!term || term.taxonomy !== taxonomy) return 'invalid';
      out.push(term.id);
    } else {
      const existing = state.termsOf(taxonomy).find((t) => t.name === item || t.slug === slugify(item));
      out.push(existing ? existing.id : item);
    }
  }
  return out;
}

/** Reads and validates the fields of `params` against `existing` (update) or nothing (create). */
export function readEventChanges(
  state: CalendarState,
  user: WpUser | undefined,
  params: Record<string, unknown>,
  existing: EventPost | undefined,
): EventChanges {
  const invalid: string[] = [];
  const has = (key: string) => params[key] !== undefined && params[key] !== null;
  const str = (key: string) =>
    has(key)
      ? typeof params[key] === 'string' || typeof params[key] === 'number'
        ? String(params[key])
        : undefined
      : undefined;
  for (const key of ['title', 'description', 'excerpt', 'slug', 'cost']) {
    if (has(key) && str(key) === undefined) invalid.push(key);
  }
  const timezone = has('timezone') ? params.timezone : (existing?.timezone ?? state.site.timezone);
  if (!validZone(timezone)) invalid.push('timezone');
  const zone = validZone(timezone) ? timezone : state.site.timezone;
  const now = state.now();
  const start = has('start_date') ? parseTime(params.start_date, zone, now) : undefined;
  const end = has('end_date') ? parseTime(params.end_date, zone, now) : undefined;
  if (has('start_date') && !start) invalid.push('start_date');
  if (has('end_date') && !end) invalid.push('end_date');
  if (has('status') && !POST_STATUSES.includes(String(params.status))) invalid.push('status');
  if (has('author') && !state.users.some((u) => u.id === positiveInt(params.author))) invalid.push('author');
  for (const key of ['date', 'date_utc']) {
    if (has(key) && !parseTime(params[key], key === 'date' ? state.site.timezone : 'UTC', now))
      invalid.push(key);
  }
  const website = str('website');
  if (has('website') && website !== '' && !(website && URLISH.test(website))) invalid.push('website');
  const image = params.image;
  if (
    has('image') &&
    positiveInt(image) === undefined &&
    !(typeof image === 'string' && URLISH.test(image))
  ) {
    invalid.push('image');
  }
  const categories = has('categories') ? termIds(state, 'tribe_events_cat', params.categories) : undefined;
  if (categories === 'invalid') invalid.push('categories');
  const tags = has('tags') ? termIds(state, 'post_tag', params.tags) : undefined;
  if (tags === 'invalid') invalid.push('tags');
  const venues = has('venue') ? linkedRefs(state, 'venue', params.venue) : undefined;
  const organizers = has('organizer') ? linkedRefs(state, 'organizer', params.organizer) : undefined;
  if (venues === 'invalid') invalid.push('venue');
  if (organizers === 'invalid') invalid.push('organizer');
  if (invalid.length > 0) return { ok: false, code: 'rest_invalid_param', params: invalid };
  if (venues === 'wrong-type' || organizers === 'wrong-type') {
    return {
      ok: false,
      code: 'invalid-linked-post-id',
      params: [venues === 'wrong-type' ? 'venue' : 'organizer'],
    };
  }
  if (venues === 'bad-data') return { ok: false, code: 'could-not-create-venue', params: ['venue'] };
  if (organizers === 'bad-data')
    return { ok: false, code: 'could-not-create-organizer', params: ['organizer'] };

  const allDay = has('all_day') ? truthy(params.all_day) : (existing?.allDay ?? false);
  const startAt = start ?? (existing ? DateTime.fromMillis(existing.startUtc, { zone }) : undefined);
  const endAt = end ?? (existing ? DateTime.fromMillis(existing.endUtc, { zone }) : undefined);
  let startMs = startAt?.toMillis();
  let endMs = endAt?.toMillis();
  if (allDay && startAt && endAt) {
    // All-day events cover whole days of their zone.
    startMs = startAt.setZone(zone).startOf('day').toMillis();
    endMs = endAt.setZone(zone).endOf('day').set({ millisecond: 0 }).toMillis();
  }
  if (startMs !== undefined && endMs !== undefined && endMs < startMs) {
    return { ok: false, code: 'rest_invalid_param', params: ['end_date'] };
  }

  return {
    ok: true,
    apply(event) {
      const text = (key: string) => str(key);
      if (has('title')) event.title = text('title') ?? '';
      if (has('description')) event.description = text('description') ?? '';
      if (has('excerpt')) event.excerpt = text('excerpt') ?? '';
      if (has('slug') || !existing)
        event.slug = state.uniqueSlug('event', text('slug') || event.title, event.id);
      if (has('status') || !existing) event.status = scaleBackStatus(user, params.status);
      if (has('author')) event.author = positiveInt(params.author) ?? event.author;
      event.timezone = zone;
      event.allDay = allDay;
      if (startMs !== undefined) event.startUtc = startMs;
      if (endMs !== undefined) event.endUtc = endMs;
      if (has('cost')) event.cost = text('cost') ?? '';
      if (has('website')) event.website = website || undefined;
      if (has('image')) {
        const id = positiveInt(image) ?? state.newPostId();
        const url =
          typeof image === 'string' && URLISH.test(image)
            ? image
            : `${state.site.url}/wp-content/uploads/${id}.jpg`;
        event.image = { id, url, width: 1200, height: 630 };
      }
      for (const flag of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const) {
        if (!has(flag)) continue;
        const value = truthy(params[flag]);
        if (flag === 'show_map') event.showMap = value;
        else if (flag === 'show_map_link') event.showMapLink = value;
        else if (flag === 'hide_from_listings') event.hideFromListings = value;
        else event[flag] = value;
      }
      const resolveTerms = (taxonomy: Taxonomy, items: (number | string)[]) =>
        items.map((item) => {
          if (typeof item === 'number') return item;
          const term = {
            id: state.newTermId(),
            taxonomy,
            name: item,
            slug: state.uniqueTermSlug(taxonomy, item),
            description: '',
            parent: 0,
          };
          state.terms.set(term.id, term);
          return term.id;
        });
      if (Array.isArray(categories)) event.categories = resolveTerms('tribe_events_cat', categories);
      if (Array.isArray(tags)) event.tags = resolveTerms('post_tag', tags);
      const resolveLinked = (type: LinkedType, refs: LinkedRef[]) =>
        refs.flatMap((ref) => {
          if ('id' in ref) return [ref.id];
          const fields = readLinkedFields(type, ref.create);
          const created = fields.ok ? createLinked(state, user, type, fields) : undefined;
          return created ? [created.id] : [];
        });
      if (Array.isArray(venues)) event.venues = resolveLinked('venue', venues);
      if (Array.isArray(organizers)) event.organizers = resolveLinked('organizer', organizers);
      event.modified = state.now();
    },
  };
}
