/**
 * Event fields of a create or update request, validated as the plugin's `validate_callback`s (and
 * core's schema types) do before anything is written (a bad field is `400 rest_invalid_param` and
 * changes nothing), then saved as the-events-calendar 6.17.2 saves them:
 *
 * - `src/Tribe/REST/V1/Endpoints/Single_Event.php` `prepare_postarr()` rebuilds the whole event from
 *   the request on update too: an absent `status` is `scale_back_post_status(null)` (publish for an
 *   editor), `all_day` defaults to false, `cost`/`website` are emptied, `image` removed
 *   (`tribe_upload_image(null)` is false), `show_map`, `show_map_link`, `hide_from_listings`,
 *   `sticky`, `featured` become false. Title, description, excerpt, slug, terms and venue are kept.
 * - `src/Tribe/API.php` `prepare_event_date_meta()`: dates are read in the request's `timezone`, else
 *   the site's; they change only when both start and end (with times) are given, or `all_day` is
 *   on; otherwise the stored wall-clock dates stay, the zone becomes the request's or the site's and
 *   the UTC dates are NOT recomputed. An end before the start is stored as the start.
 * - Organizers: absent from an update, they are removed (observed on a 6.17.2 site; see
 *   specs/calendar/emulator-audit.md for the source reading).
 *
 * Terms by id or name (names that do not exist are created, as `Tribe__Terms::translate_terms_to_ids`
 * does), venues and organizers by id, `{id}` or inline fields (created, de-duplicated). Emulator
 * choice: `image` as a URL is "side-loaded" into a fake attachment without fetching it.
 */
import { DateTime } from 'luxon';
import { createLinked, type LinkedType, readLinkedFields } from './linked-fields';
import { type CalendarState, type EventPost, slugify, type Taxonomy, type WpUser } from './state';
import { apiDate, localTimes, parseTime, validZone } from './strtotime';
import { listParam, POST_STATUSES, positiveInt, scaleBackStatus, schemaTypeProblem, truthy } from './wp';

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
      /** Core's message for some parameters (`image is not of type string.`). */
      messages?: Record<string, string>;
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

/** String-typed arguments of the event routes (`CREATE_args`), checked by core before anything else. */
const STRING_ARGS = [
  'title',
  'description',
  'slug',
  'excerpt',
  'status',
  'timezone',
  'start_date',
  'end_date',
  'date',
  'date_utc',
  'image',
];
/** Boolean-typed arguments. */
const BOOLEAN_ARGS = ['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'];

/** The new dates of the event, as `prepare_event_date_meta` computes them. */
interface DatePlan {
  zone: string;
  allDay: boolean;
  /** New instants, or undefined: the stored wall-clock dates and UTC dates stay as they are. */
  startMs?: number;
  endMs?: number;
}

function planDates(
  params: Record<string, unknown>,
  existing: EventPost | undefined,
  start: DateTime | undefined,
  end: DateTime | undefined,
  zone: string,
  has: (key: string) => boolean,
): DatePlan {
  // `all_day` has `'default' => false` in CREATE_args, kept by EDIT_args: absent means false.
  const allDay = has('all_day') ? truthy(params.all_day) : false;
  const stored = existing ? localTimes(existing) : undefined;
  const wall = (value: DateTime | undefined, kept: DateTime | undefined) =>
    value ? value.toFormat('yyyy-MM-dd HH:mm:ss') : kept ? apiDate(kept) : undefined;
  let startText: string | undefined;
  let endText: string | undefined;
  if (allDay) {
    startText = wall(start, stored?.start)?.slice(0, 10).concat(' 00:00:00');
    endText = wall(end, stored?.end)?.slice(0, 10).concat(' 23:59:59');
  } else if (start && end) {
    startText = wall(start, undefined);
    endText = wall(end, undefined);
  }
  if (startText === undefined || endText === undefined) return { zone, allDay };
  const startAt = DateTime.fromFormat(startText, 'yyyy-MM-dd HH:mm:ss', { zone });
  let endAt = DateTime.fromFormat(endText, 'yyyy-MM-dd HH:mm:ss', { zone });
  // "sanity check that start date < end date": the end becomes the start.
  if (endAt < startAt) endAt = startAt;
  return { zone, allDay, startMs: startAt.toMillis(), endMs: endAt.toMillis() };
}

/** Reads and validates the fields of `params` against `existing` (update) or nothing (create). */
export function readEventChanges(
  state: CalendarState,
  user: WpUser | undefined,
  params: Record<string, unknown>,
  existing: EventPost | undefined,
): EventChanges {
  const invalid: string[] = [];
  const messages: Record<string, string> = {};
  for (const key of STRING_ARGS) {
    const problem = schemaTypeProblem(key, params[key], 'string');
    if (problem) messages[key] = problem;
  }
  for (const key of BOOLEAN_ARGS) {
    const problem = schemaTypeProblem(key, params[key], 'boolean');
    if (problem) messages[key] = problem;
  }
  if (Object.keys(messages).length > 0) {
    return { ok: false, code: 'rest_invalid_param', params: Object.keys(messages), messages };
  }
  const has = (key: string) => params[key] !== undefined && params[key] !== null;
  const str = (key: string) =>
    has(key)
      ? typeof params[key] === 'string' || typeof params[key] === 'number'
        ? String(params[key])
        : undefined
      : undefined;
  if (has('cost') && str('cost') === undefined) invalid.push('cost');
  // An empty timezone is allowed (`is_timezone_or_empty`) and means the site's.
  const zoneGiven = has('timezone') && params.timezone !== '';
  if (zoneGiven && !validZone(params.timezone)) invalid.push('timezone');
  const zone = zoneGiven && validZone(params.timezone) ? (params.timezone as string) : state.site.timezone;
  const now = state.now();
  // `build_date_object( $request['start_date'], $request['timezone'] )`: the site's zone without one.
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
    image !== '' &&
    positiveInt(image) === undefined &&
    !(typeof image === 'string' && URLISH.test(image))
  ) {
    invalid.push('image');
  }
  const categories = has('categories') ? termIds(state, 'tribe_events_cat', params.categories) : undefined;
  if (categories === 'invalid') invalid.push('categories');
  const tags = has('tags') ? termIds(state, 'post_tag', params.tags) : undefined;
  if (tags === 'invalid') invalid.push('tags');
  // An empty venue or organizer passes `is_*_id_or_entry_or_empty` and `insert()` ignores it.
  const empty = (value: unknown) => !value || (Array.isArray(value) && value.filter(Boolean).length === 0);
  const venues = empty(params.venue) ? undefined : linkedRefs(state, 'venue', params.venue);
  const organizers = empty(params.organizer) ? undefined : linkedRefs(state, 'organizer', params.organizer);
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

  const dates = planDates(params, existing, start, end, zone, has);

  return {
    ok: true,
    apply(event) {
      const text = (key: string) => str(key);
      if (has('title')) event.title = text('title') ?? '';
      if (has('description')) event.description = text('description') ?? '';
      if (has('excerpt')) event.excerpt = text('excerpt') ?? '';
      if (has('slug') || !existing)
        event.slug = state.uniqueSlug('event', text('slug') || event.title, event.id);
      // `scale_back_post_status( $request['status'] )`: absent is publish (or draft without the right).
      event.status = scaleBackStatus(user, params.status);
      if (has('author')) event.author = positiveInt(params.author) ?? event.author;
      if (dates.startMs !== undefined && dates.endMs !== undefined) {
        event.startUtc = dates.startMs;
        event.endUtc = dates.endMs;
        event.localStart = undefined;
        event.localEnd = undefined;
      } else if (existing && dates.zone !== event.timezone) {
        // The stored wall-clock dates stay; only the zone changes (UTC dates not recomputed).
        const kept = localTimes(event);
        event.localStart = apiDate(kept.start);
        event.localEnd = apiDate(kept.end);
      }
      event.timezone = dates.zone;
      event.allDay = dates.allDay;
      event.cost = text('cost') ?? '';
      // `EventURL` is `filter_var( null )` = '' on update; `createEvent( array_filter() )` drops it on create.
      event.website = website ?? (existing ? '' : undefined);
      if (has('image') && image !== '') {
        const id = positiveInt(image) ?? state.newPostId();
        const url =
          typeof image === 'string' && URLISH.test(image)
            ? image
            : `${state.site.url}/wp-content/uploads/${id}.jpg`;
        event.image = { id, url, width: 1200, height: 630 };
      } else {
        event.image = undefined;
      }
      event.showMap = truthy(params.show_map);
      event.showMapLink = truthy(params.show_map_link);
      event.hideFromListings = truthy(params.hide_from_listings);
      event.sticky = truthy(params.sticky);
      event.featured = truthy(params.featured);
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
      else event.organizers = [];
      event.modified = state.now();
    },
  };
}
