/**
 * Schemas of The Events Calendar REST API v1 (specs/calendar/README.md §3–§6). Objects are
 * non-strict (add-ons add keys; unknown keys are dropped), and the API's quirks are normalised here:
 * `venue` is an object, an array or `[]`; `image` is `false` or an object; `custom_fields` is `[]`
 * when empty; list totals may be numeric strings; venues and organizers drop empty fields; a
 * password-protected venue's name is `[]`.
 */
import { z } from 'zod';
import { htmlToText } from './text';

/** An integer sent as a number or a numeric string (WordPress's `X-WP-Total` copies). */
const lenientInt = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]);

/** A string the API may leave out, send as `null`, `false` or `[]` (emptied fields). */
const optionalText = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === 'string' ? value : undefined));

/** A boolean the API may send as `null` (password-protected events) or leave out. */
const optionalBool = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === 'boolean' ? value : undefined));

/** The featured image: `false` when there is none. */
const ImageSchema = z
  .unknown()
  .optional()
  .transform((value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const image = value as Record<string, unknown>;
    if (typeof image.url !== 'string') return undefined;
    const id = typeof image.id === 'number' ? image.id : Number(image.id);
    return {
      url: image.url,
      // The attachment id: an update must send it back (as a string) or the image is removed.
      ...(Number.isInteger(id) && id > 0 ? { id } : {}),
      ...(typeof image.width === 'number' ? { width: image.width } : {}),
      ...(typeof image.height === 'number' ? { height: image.height } : {}),
    };
  });

/** A category or tag (`tribe_events_cat` / `post_tag`), from `/categories`, `/tags` or inside an event. */
export const TermSchema = z
  .object({
    id: z.number(),
    name: z.string(),
    slug: z.string(),
    taxonomy: optionalText,
    description: optionalText,
    parent: z.number().optional(),
    count: z.number().optional(),
    url: optionalText,
  })
  .transform((term) => ({ ...term, name: htmlToText(term.name) }));
/** A category or tag. */
export type CalendarTerm = z.output<typeof TermSchema>;

/** A venue. Every field but `id` may be missing (empty values are removed by the plugin). */
export const VenueSchema = z
  .object({
    id: z.number(),
    venue: optionalText,
    slug: optionalText,
    status: optionalText,
    url: optionalText,
    description: optionalText,
    address: optionalText,
    city: optionalText,
    country: optionalText,
    province: optionalText,
    state: optionalText,
    stateprovince: optionalText,
    zip: optionalText,
    phone: optionalText,
    website: optionalText,
    image: ImageSchema,
    show_map: optionalBool,
    show_map_link: optionalBool,
  })
  .transform(({ venue, ...rest }) => ({ ...rest, name: venue === undefined ? '' : htmlToText(venue) }));
/** A venue; `name` is `''` when the plugin hides it (password-protected). */
export type CalendarVenue = z.output<typeof VenueSchema>;

/** An organizer. Every field but `id` may be missing. */
export const OrganizerSchema = z
  .object({
    id: z.number(),
    organizer: optionalText,
    slug: optionalText,
    status: optionalText,
    url: optionalText,
    description: optionalText,
    phone: optionalText,
    website: optionalText,
    email: optionalText,
    image: ImageSchema,
  })
  .transform(({ organizer, ...rest }) => ({
    ...rest,
    name: organizer === undefined ? '' : htmlToText(organizer),
  }));
/** An organizer; `name` is `''` when the plugin hides it. */
export type CalendarOrganizer = z.output<typeof OrganizerSchema>;

/** `venue` of an event: one object, an array (several venues, Pro) or `[]`. Always a list here. */
const EventVenues = z
  .union([VenueSchema, z.array(VenueSchema), z.null(), z.literal(false)])
  .optional()
  .transform((value) => (value == null || value === false ? [] : Array.isArray(value) ? value : [value]));

/** `custom_fields`: an object keyed by meta name, or `[]` when there are none. */
const CustomFields = z
  .unknown()
  .optional()
  .transform(
    (value): Record<string, { label: string; value: string }> =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, { label: string; value: string }>)
        : {},
  );

/** An event (`GET /events/{id}`; list items have the same shape minus `json_ld`). */
export const EventSchema = z
  .object({
    id: z.number(),
    status: z.string(),
    url: z.string(),
    rest_url: optionalText,
    title: z.string(),
    description: optionalText,
    excerpt: optionalText,
    slug: z.string(),
    author: optionalText,
    date: optionalText,
    modified: optionalText,
    image: ImageSchema,
    all_day: optionalBool,
    start_date: z.string(),
    end_date: z.string(),
    utc_start_date: z.string(),
    utc_end_date: z.string(),
    timezone: z.string(),
    timezone_abbr: optionalText,
    cost: optionalText,
    website: optionalText,
    show_map: optionalBool,
    show_map_link: optionalBool,
    hide_from_listings: optionalBool,
    sticky: optionalBool,
    featured: optionalBool,
    categories: z.array(TermSchema).nullish(),
    tags: z.array(TermSchema).nullish(),
    venue: EventVenues,
    organizer: z.array(OrganizerSchema).nullish(),
    custom_fields: CustomFields,
  })
  .transform((e) => ({
    id: e.id,
    status: e.status,
    url: e.url,
    restUrl: e.rest_url,
    title: htmlToText(e.title),
    description: e.description === undefined ? '' : htmlToText(e.description),
    excerpt: e.excerpt === undefined ? '' : htmlToText(e.excerpt),
    slug: e.slug,
    author: e.author,
    date: e.date,
    modified: e.modified,
    image: e.image,
    allDay: e.all_day === true,
    startDate: e.start_date,
    endDate: e.end_date,
    utcStartDate: e.utc_start_date,
    utcEndDate: e.utc_end_date,
    timezone: e.timezone,
    timezoneAbbr: e.timezone_abbr,
    cost: e.cost ?? '',
    website: e.website,
    showMap: e.show_map,
    showMapLink: e.show_map_link,
    featured: e.featured === true,
    sticky: e.sticky === true,
    hideFromListings: e.hide_from_listings === true,
    categories: e.categories ?? [],
    tags: e.tags ?? [],
    venues: e.venue,
    organizers: e.organizer ?? [],
    customFields: e.custom_fields,
  }));
/**
 * An event, normalised: `title`/`description` as plain text, `venues` always a list, dates as the
 * API's `YYYY-MM-DD HH:MM:SS` strings (`startDate` in the event's `timezone`, `utc*` in UTC).
 */
export type CalendarEvent = z.output<typeof EventSchema>;

/** The paging members of every list envelope. */
const paging = {
  rest_url: optionalText,
  next_rest_url: optionalText,
  previous_rest_url: optionalText,
  total: lenientInt.optional(),
  total_pages: lenientInt.optional(),
};

/** One page of a list, with the totals and the links the API gave. */
export interface CalendarPage<T> {
  items: T[];
  /** Items matching the query, over all pages. */
  total: number;
  totalPages: number;
  /** The page this is (1-based). */
  page: number;
  /** Link of the next page, when there is one. */
  nextUrl: string | undefined;
  previousUrl: string | undefined;
}

/** A list envelope `{<key>: [...], rest_url, next_rest_url?, previous_rest_url?, total, total_pages}`. */
export function pageSchema<T extends z.ZodType>(key: string, item: T) {
  return z
    .object({ [key]: z.array(item).nullish(), ...paging })
    .transform((body): Omit<CalendarPage<z.output<T>>, 'page'> => {
      const items = ((body as Record<string, unknown>)[key] as z.output<T>[] | null | undefined) ?? [];
      return {
        items,
        total: (body.total as number | undefined) ?? items.length,
        totalPages: (body.total_pages as number | undefined) ?? (items.length > 0 ? 1 : 0),
        nextUrl: body.next_rest_url as string | undefined,
        previousUrl: body.previous_rest_url as string | undefined,
      };
    });
}

/** The WordPress REST index (`GET {rest_root}/`): the site's name, address and time zone. */
export const SiteIndexSchema = z
  .object({
    name: z.string().optional(),
    url: z.string().optional(),
    home: z.string().optional(),
    timezone_string: z.string().nullish(),
    gmt_offset: z.union([z.number(), z.string()]).nullish(),
    namespaces: z.array(z.string()).optional(),
  })
  .transform((index) => ({
    name: htmlToText(index.name ?? ''),
    url: index.home ?? index.url,
    timezone: siteZone(index.timezone_string, index.gmt_offset),
    namespaces: index.namespaces ?? [],
  }));
/** The calendar site: its name, home address, time zone (IANA name or `UTC+2`) and REST namespaces. */
export type CalendarSite = z.output<typeof SiteIndexSchema>;

/** WordPress keeps either a zone name, or (legacy setting) only an hour offset. */
function siteZone(name: string | null | undefined, offset: number | string | null | undefined): string {
  if (name) return name;
  const hours = Number(offset ?? 0);
  if (!Number.isFinite(hours) || hours === 0) return 'UTC';
  const sign = hours < 0 ? '-' : '+';
  const abs = Math.abs(hours);
  const minutes = Math.round((abs % 1) * 60);
  return `UTC${sign}${Math.floor(abs)}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

/** The WordPress error envelope `{code, message, data: {status, params?}}`. */
export const ErrorBodySchema = z.object({
  code: z.string(),
  message: z.string().optional().default(''),
  data: z
    .object({
      status: z.number().optional(),
      params: z.union([z.record(z.string(), z.string()), z.array(z.string())]).optional(),
    })
    .nullish(),
});
/** A WordPress REST error body. */
export type CalendarErrorBody = z.output<typeof ErrorBodySchema>;

/** Any JSON (the namespace index and the Swagger document are passed through as they are). */
export const AnyJsonSchema = z.unknown();
