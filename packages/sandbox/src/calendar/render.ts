/**
 * The plugin's response shapes (`Post_Repository`): events with their venue (one object, an array,
 * or `[]`), organizers (always an array), terms and dates in three zones; venues and organizers with
 * empty values removed; the protected fields of password-protected events blanked in lists.
 */
import { DateTime } from 'luxon';
import {
  type CalendarState,
  type EventPost,
  ORGANIZER_DETAILS,
  type OrganizerPost,
  type Term,
  VENUE_DETAILS,
  type VenuePost,
} from './state';
import { apiDate, dateDetails, localTimes } from './strtotime';

/** Where the emulated site's REST namespace lives. */
export interface Urls {
  /** `http://127.0.0.1:PORT` */
  site: string;
  /** `http://127.0.0.1:PORT/wp-json/tribe/events/v1` */
  api: string;
}

/** WordPress wraps post content in paragraphs. */
function rendered(text: string): string {
  if (!text.trim()) return '';
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return escaped
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/\n/g, '<br />\n')}</p>`)
    .join('\n');
}

/** Titles are HTML-escaped and typographic dashes/quotes become numeric references (wptexturize). */
function renderedTitle(text: string): string {
  return text
    .replace(/&/g, '&#038;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/ - /g, ' &#8211; ')
    .replace(/'/g, '&#8217;');
}

function siteDate(state: CalendarState, ms: number): string {
  return apiDate(DateTime.fromMillis(ms, { zone: state.site.timezone }));
}

function utcDate(ms: number): string {
  return apiDate(DateTime.fromMillis(ms, { zone: 'UTC' }));
}

/** Keeps only non-empty values, as the plugin does for venues and organizers. */
function nonEmpty(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(object).filter(([, v]) => v !== undefined && v !== null && v !== '' && v !== false),
  );
}

/** A venue (`single` adds `json_ld`). */
export function renderVenue(state: CalendarState, urls: Urls, venue: VenuePost, single = false) {
  const host = new URL(urls.site).host;
  // Post_Repository::get_venue_data: `array_filter()` first, then show_map/show_map_link added
  // (so `false` is shown), then the global id fields.
  const { global_id, global_id_lineage, ...rest } = nonEmpty({
    id: venue.id,
    author: String(venue.author),
    status: venue.status,
    date: siteDate(state, venue.date),
    date_utc: utcDate(venue.date),
    modified: siteDate(state, venue.modified),
    modified_utc: utcDate(venue.modified),
    url: `${urls.site}/venue/${venue.slug}/`,
    venue: venue.password ? [] : venue.name,
    description: rendered(venue.description),
    excerpt: rendered(venue.excerpt),
    slug: venue.slug,
    image: venue.image ?? false,
    ...Object.fromEntries(VENUE_DETAILS.map((k) => [k, venue.details[k]])),
    global_id: `${host}?id=${venue.id}`,
    global_id_lineage: [`${host}?id=${venue.id}`],
    ...(single ? { json_ld: { '@type': 'Place', name: venue.name } } : {}),
  });
  return { ...rest, show_map: venue.showMap, show_map_link: venue.showMapLink, global_id, global_id_lineage };
}

/** An organizer. */
export function renderOrganizer(state: CalendarState, urls: Urls, organizer: OrganizerPost, single = false) {
  const host = new URL(urls.site).host;
  return nonEmpty({
    id: organizer.id,
    author: String(organizer.author),
    status: organizer.status,
    date: siteDate(state, organizer.date),
    date_utc: utcDate(organizer.date),
    modified: siteDate(state, organizer.modified),
    modified_utc: utcDate(organizer.modified),
    url: `${urls.site}/organizer/${organizer.slug}/`,
    organizer: organizer.password ? [] : organizer.name,
    description: rendered(organizer.description),
    excerpt: rendered(organizer.excerpt),
    slug: organizer.slug,
    image: organizer.image ?? false,
    ...Object.fromEntries(ORGANIZER_DETAILS.map((k) => [k, organizer.details[k]])),
    global_id: `${host}?id=${organizer.id}`,
    global_id_lineage: [`${host}?id=${organizer.id}`],
    ...(single ? { json_ld: { '@type': 'Person', name: organizer.name } } : {}),
  });
}

/** A term as `/categories` and `/tags` list it. */
export function renderTerm(state: CalendarState, urls: Urls, term: Term) {
  const collection = term.taxonomy === 'tribe_events_cat' ? 'categories' : 'tags';
  const archive = term.taxonomy === 'tribe_events_cat' ? 'events/category' : 'tag';
  return {
    id: term.id,
    count: state.termCount(term),
    description: term.description,
    url: `${urls.site}/${archive}/${term.slug}/`,
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
    parent: term.parent,
    urls: {
      self: `${urls.api}/${collection}/${term.id}`,
      collection: `${urls.api}/${collection}`,
      ...(term.parent ? { up: `${urls.api}/${collection}/${term.parent}` } : {}),
    },
  };
}

/** A term as it appears inside an event (no `url`; WordPress term fields). */
function eventTerm(state: CalendarState, urls: Urls, term: Term) {
  const { url: _url, ...rest } = renderTerm(state, urls, term);
  return { ...rest, term_group: 0, term_taxonomy_id: term.id, filter: 'raw' };
}

/**
 * An event. `protectedView`: a password-protected event in a list (its protected fields blanked).
 * `single` adds `json_ld`.
 */
export function renderEvent(
  state: CalendarState,
  urls: Urls,
  event: EventPost,
  options: { single?: boolean; protectedView?: boolean } = {},
) {
  const host = new URL(urls.site).host;
  // The wall-clock dates as stored; the UTC ones are not recomputed when only the zone was reset.
  const { start, end } = localTimes(event);
  const startUtc = DateTime.fromMillis(event.startUtc, { zone: 'UTC' });
  const endUtc = DateTime.fromMillis(event.endUtc, { zone: 'UTC' });
  const terms = (ids: number[]) =>
    ids.map((id) => state.terms.get(id)).filter((t): t is Term => t !== undefined);
  const venues = event.venues
    .map((id) => state.post('venue', id))
    .filter((v): v is VenuePost => v !== undefined)
    .map((v) => renderVenue(state, urls, v));
  const url = `${urls.site}/event/${event.slug}/`;
  const blank = options.protectedView === true;
  return {
    id: event.id,
    global_id: `${host}?id=${event.id}`,
    global_id_lineage: [`${host}?id=${event.id}`],
    author: String(event.author),
    status: event.status,
    date: siteDate(state, event.date),
    date_utc: utcDate(event.date),
    modified: siteDate(state, event.modified),
    modified_utc: utcDate(event.modified),
    url,
    rest_url: `${urls.api}/events/${event.id}`,
    title: renderedTitle(event.title),
    description: blank ? '' : rendered(event.description),
    excerpt: blank ? '' : rendered(event.excerpt),
    slug: event.slug,
    image: blank ? false : (event.image ?? false),
    all_day: blank ? null : event.allDay,
    start_date: apiDate(start),
    start_date_details: dateDetails(start),
    end_date: apiDate(end),
    end_date_details: dateDetails(end),
    utc_start_date: apiDate(startUtc),
    utc_start_date_details: dateDetails(startUtc),
    utc_end_date: apiDate(endUtc),
    utc_end_date_details: dateDetails(endUtc),
    timezone: event.timezone,
    timezone_abbr: start.setLocale('en-GB').offsetNameShort ?? event.timezone,
    cost: event.cost,
    cost_details: {
      currency_symbol: '',
      currency_code: '',
      currency_position: 'prefix',
      values: event.cost ? [event.cost] : [],
    },
    // Post_Repository::get_event_data: `_EventURL` when set (even emptied), else the permalink.
    website: event.website ?? url,
    show_map: blank ? null : event.showMap,
    show_map_link: blank ? null : event.showMapLink,
    hide_from_listings: blank ? null : event.hideFromListings,
    sticky: blank ? null : event.sticky,
    featured: blank ? null : event.featured,
    categories: blank ? [] : terms(event.categories).map((t) => eventTerm(state, urls, t)),
    tags: blank ? [] : terms(event.tags).map((t) => eventTerm(state, urls, t)),
    venue: blank || venues.length === 0 ? [] : venues.length === 1 ? venues[0] : venues,
    organizer: blank
      ? []
      : event.organizers
          .map((id) => state.post('organizer', id))
          .filter((o): o is OrganizerPost => o !== undefined)
          .map((o) => renderOrganizer(state, urls, o)),
    custom_fields: [],
    ...(options.single
      ? { json_ld: { '@context': 'http://schema.org', '@type': 'Event', name: event.title } }
      : {}),
  };
}
