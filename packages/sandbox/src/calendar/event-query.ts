/**
 * The filters of `GET /events` (specs/calendar/README.md §3), as the-events-calendar 6.17.2 runs them
 * (`src/Tribe/REST/V1/Endpoints/Archive_Event.php` `get()`, `src/Tribe/Repositories/Event.php`):
 *
 * - Date bounds go through `Tribe__Timezones::localize_date()` (tribe-common 6.12.2
 *   `src/Tribe/Timezones.php`): `new DateTime( $date )` under PHP's default zone, which WordPress sets
 *   to UTC — a bound without an offset is read as UTC, one with an offset as that offset — then
 *   moved to the site's zone.
 * - Without `strict_dates` (the default) every bound is replaced by a whole day of the raw string:
 *   `start_date` by `tribe_beginning_of_day()`, the others by `tribe_end_of_day()`.
 * - `start_date` keeps events that start on or after it, `end_date` those that end on or before it
 *   (the repository's `filter_by_starts_on_or_after` / `filter_by_ends_on_or_before`); `starts_*` and
 *   `ends_*` are strict comparisons. In the plugin's default "event" time-zone mode the bound (in
 *   the site's wall-clock time) is compared with each event's own wall-clock dates; in "site" mode
 *   with its UTC dates.
 * - Defaults: `start_date` = `localize_date( 'yesterday 23:59' )`, `end_date` = `+24 months`; a
 *   `starts_*`/`ends_*` filter drops the defaults not given in the query; `include` drops dates.
 * - Events hidden from listings are never listed (`$event_orm->by( 'hidden', false )` in
 *   `src/Tribe/Query.php` `getEvents()`).
 */
import { DateTime } from 'luxon';
import { type CalendarState, type EventPost, slugify, type WpUser } from './state';
import { apiDate, localTimes, parseTime } from './strtotime';
import { listParam, positiveInt, truthy, visibleStatuses } from './wp';

/** The selected events (sorted by start, then id) and the effective query for `rest_url`; or a 400. */
export type EventQueryResult =
  | { ok: true; events: EventPost[]; query: Record<string, string> }
  | { ok: false; code: string; message?: string; params: string[] };

type BoundKey = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after';

/** How each bound compares with the event's start or end (`>=`, `<=`, `<`, `>`). */
const COMPARE: Record<BoundKey, { field: 'start' | 'end'; test: (event: string, bound: string) => boolean }> =
  {
    start_date: { field: 'start', test: (e, b) => e >= b },
    end_date: { field: 'end', test: (e, b) => e <= b },
    starts_before: { field: 'start', test: (e, b) => e < b },
    starts_after: { field: 'start', test: (e, b) => e > b },
    ends_before: { field: 'end', test: (e, b) => e < b },
    ends_after: { field: 'end', test: (e, b) => e > b },
  };

/** Runs the query of a `GET /events`. */
export function queryEvents(
  state: CalendarState,
  user: WpUser | undefined,
  params: Record<string, unknown>,
): EventQueryResult {
  const zone = state.site.timezone;
  const now = state.now();
  const invalid: string[] = [];
  const query: Record<string, string> = {};
  const strict = params.strict_dates !== undefined && truthy(params.strict_dates);
  const include = listParam(params.include).map(Number);
  if (include.some((id) => !Number.isInteger(id) || id <= 0)) invalid.push('include');
  const relative = (['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const).some(
    (key) => params[key] !== undefined,
  );
  // The route's defaults (READ_args): already a site-zone string for start, a UTC one for end.
  const defaults: Partial<Record<BoundKey, string>> = relative
    ? {}
    : {
        start_date: apiDate((parseTime('yesterday 23:59', 'UTC', now) as DateTime).setZone(zone)),
        end_date: apiDate(DateTime.fromMillis(now, { zone: 'UTC' }).plus({ months: 24 })),
      };
  const bounds: Partial<Record<BoundKey, string>> = {};
  for (const key of Object.keys(COMPARE) as BoundKey[]) {
    const raw = params[key] ?? defaults[key];
    if (raw === undefined) continue;
    // `localize_date`: read under PHP's default zone (UTC), moved to the site's zone.
    const read = parseTime(raw, 'UTC', now);
    if (!read) {
      invalid.push(key);
      continue;
    }
    if (strict) {
      bounds[key] = apiDate(read.setZone(zone));
    } else {
      // `tribe_beginning_of_day` / `tribe_end_of_day`: the day of `strtotime( $raw )` (UTC).
      const day = read.setZone('UTC').toFormat('yyyy-MM-dd');
      bounds[key] = key === 'start_date' ? `${day} 00:00:00` : `${day} 23:59:59`;
    }
  }
  const siteMode = state.site.timezoneMode === 'site';
  /** The event's date as compared: its own wall-clock time ("event" mode) or UTC ("site" mode). */
  const eventDate = (event: EventPost, field: 'start' | 'end') => {
    if (siteMode)
      return apiDate(DateTime.fromMillis(field === 'start' ? event.startUtc : event.endUtc, { zone: 'UTC' }));
    const local = localTimes(event);
    return apiDate(field === 'start' ? local.start : local.end);
  };
  /** A bound as compared: the site's wall-clock time, or UTC in "site" mode. */
  const boundValue = (text: string) =>
    siteMode ? apiDate(DateTime.fromFormat(text, 'yyyy-MM-dd HH:mm:ss', { zone }).setZone('UTC')) : text;
  const statuses = visibleStatuses(user, params.status);
  if (statuses === 'invalid') invalid.push('status');
  if (params.search !== undefined && (typeof params.search !== 'string' || params.search.trim() === '')) {
    invalid.push('search');
  }
  const termFilter = (key: 'categories' | 'tags') => {
    const taxonomy = key === 'categories' ? 'tribe_events_cat' : 'post_tag';
    const ids: number[] = [];
    for (const item of listParam(params[key])) {
      const term = state
        .termsOf(taxonomy)
        .find((t) => String(t.id) === item || t.slug === item || t.slug === slugify(item));
      if (!term) {
        invalid.push(key);
        return ids;
      }
      ids.push(term.id);
    }
    return ids;
  };
  const categories = termFilter('categories');
  const tags = termFilter('tags');
  const linkedFilter = (key: 'venue' | 'organizer') => {
    const ids = listParam(params[key]).map((v) => positiveInt(v));
    if (ids.some((id) => id === undefined || !state.post(key, id))) invalid.push(key);
    return ids as number[];
  };
  const venues = linkedFilter('venue');
  const organizers = linkedFilter('organizer');
  if (invalid.length > 0) return { ok: false, code: 'rest_invalid_param', params: [...new Set(invalid)] };
  if (params.post_parent !== undefined && !state.post('event', positiveInt(params.post_parent) ?? -1)) {
    return {
      ok: false,
      code: 'rest-invalid-event-id',
      message: 'The post_parent is not an event.',
      params: [],
    };
  }
  if (params.ticketed !== undefined) {
    return {
      ok: false,
      code: 'event-tickets-not-active',
      message: 'Event Tickets is not active: cannot filter by tickets.',
      params: [],
    };
  }

  const search = typeof params.search === 'string' ? params.search.trim().toLowerCase() : undefined;
  const featured = params.featured === undefined ? undefined : truthy(params.featured);
  const useDates = include.length === 0;
  const events = state
    .postsOf('event')
    .filter((e) => (statuses as string[]).includes(e.status))
    .filter((e) => include.length === 0 || include.includes(e.id))
    .filter((e) => !e.hideFromListings)
    .filter(
      (e) =>
        !useDates ||
        (Object.entries(bounds) as [BoundKey, string][]).every(([key, bound]) =>
          COMPARE[key].test(eventDate(e, COMPARE[key].field), boundValue(bound)),
        ),
    )
    .filter((e) => !search || `${e.title}\n${e.description}`.toLowerCase().includes(search))
    .filter((e) => categories.length === 0 || e.categories.some((id) => categories.includes(id)))
    .filter((e) => tags.length === 0 || e.tags.some((id) => tags.includes(id)))
    .filter((e) => venues.length === 0 || e.venues.some((id) => venues.includes(id)))
    .filter((e) => organizers.length === 0 || e.organizers.some((id) => organizers.includes(id)))
    .filter((e) => featured === undefined || e.featured === featured)
    .sort((a, b) => a.startUtc - b.startUtc || a.id - b.id);

  for (const [key, value] of Object.entries(bounds)) query[key] = value;
  for (const key of [
    'search',
    'categories',
    'tags',
    'venue',
    'organizer',
    'featured',
    'status',
    'include',
    'strict_dates',
  ]) {
    if (params[key] !== undefined) query[key] = listParam(params[key]).join(',');
  }
  return { ok: true, events, query };
}
