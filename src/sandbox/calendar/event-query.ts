/**
 * The filters of `GET /events` (specs/calendar/README.md §3). Dates are read in the site's zone;
 * without `strict_dates` a `start_date` starts its day and an `end_date` ends it. When no date
 * filter is given the plugin's defaults apply: from yesterday 23:59 to 24 months ahead; any
 * `starts_*`/`ends_*` filter drops those defaults; `include` ignores dates altogether.
 *
 * `start_date`/`end_date` select the events that overlap the range (an event still running at
 * `start_date` is listed) — inferred from the plugin's "upcoming events" behaviour.
 */
import type { DateTime } from 'luxon';
import { type CalendarState, type EventPost, slugify, type WpUser } from './state';
import { apiDate, parseTime } from './strtotime';
import { listParam, positiveInt, truthy, visibleStatuses } from './wp';

/** The selected events (sorted by start, then id) and the effective query for `rest_url`; or a 400. */
export type EventQueryResult =
  | { ok: true; events: EventPost[]; query: Record<string, string> }
  | { ok: false; code: string; message?: string; params: string[] };

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
  const time = (key: string): DateTime | undefined => {
    if (params[key] === undefined) return undefined;
    const parsed = parseTime(params[key], zone, now);
    if (!parsed) invalid.push(key);
    return parsed;
  };
  const strict = params.strict_dates !== undefined && truthy(params.strict_dates);
  const include = listParam(params.include).map(Number);
  if (include.some((id) => !Number.isInteger(id) || id <= 0)) invalid.push('include');
  let start = time('start_date');
  let end = time('end_date');
  const bounds = {
    starts_before: time('starts_before'),
    starts_after: time('starts_after'),
    ends_before: time('ends_before'),
    ends_after: time('ends_after'),
  };
  if (start && !strict) start = start.startOf('day');
  if (end && !strict) end = end.endOf('day').set({ millisecond: 0 });
  const anyBound = Object.values(bounds).some((b) => b !== undefined);
  if (!anyBound && params.start_date === undefined) {
    start = parseTime('yesterday 23:59', zone, now);
  }
  if (!anyBound && params.end_date === undefined) {
    end = parseTime('+24 months', zone, now);
  }
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
    .filter((e) => !useDates || !start || e.endUtc >= start.toMillis())
    .filter((e) => !useDates || !end || e.startUtc <= end.toMillis())
    .filter((e) => !useDates || !bounds.starts_before || e.startUtc <= bounds.starts_before.toMillis())
    .filter((e) => !useDates || !bounds.starts_after || e.startUtc >= bounds.starts_after.toMillis())
    .filter((e) => !useDates || !bounds.ends_before || e.endUtc <= bounds.ends_before.toMillis())
    .filter((e) => !useDates || !bounds.ends_after || e.endUtc >= bounds.ends_after.toMillis())
    .filter((e) => !search || `${e.title}\n${e.description}`.toLowerCase().includes(search))
    .filter((e) => categories.length === 0 || e.categories.some((id) => categories.includes(id)))
    .filter((e) => tags.length === 0 || e.tags.some((id) => tags.includes(id)))
    .filter((e) => venues.length === 0 || e.venues.some((id) => venues.includes(id)))
    .filter((e) => organizers.length === 0 || e.organizers.some((id) => organizers.includes(id)))
    .filter((e) => featured === undefined || e.featured === featured)
    .sort((a, b) => a.startUtc - b.startUtc || a.id - b.id);

  if (start) query.start_date = apiDate(start.setZone(zone));
  if (end) query.end_date = apiDate(end.setZone(zone));
  for (const [key, value] of Object.entries(bounds)) if (value) query[key] = apiDate(value.setZone(zone));
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
