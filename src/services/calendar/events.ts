/** The events of the calendar: list with every filter, read, create, update and trash, by id or slug. */
import { NotFoundError } from '../../core/errors';
import { type CalendarEvent, type CalendarPage, EventSchema, pageSchema } from './schemas';
import { type CalendarSession, definedOnly, itemPath, type QueryValue } from './session';
import { eventUpdateBody, imageParam } from './write-back';

/** The largest page the plugin serves (bigger `per_page` values are clamped to it). */
export const MAX_PER_PAGE = 50;

/**
 * Filters of `GET /events`, with the API's own parameter names. With `strict_dates` the plugin
 * reads a bound under PHP's zone, UTC (`Tribe__Timezones::localize_date`): send it with an explicit
 * offset ({@link toQueryBound}). Without it (the plugin's default) a bound stands for its whole day.
 * `start_date` keeps events starting on or after it, `end_date` those ending on or before it.
 */
export interface EventListQuery {
  page?: number;
  /** At most {@link MAX_PER_PAGE}. */
  per_page?: number;
  start_date?: string;
  end_date?: string;
  starts_before?: string;
  starts_after?: string;
  ends_before?: string;
  ends_after?: string;
  strict_dates?: boolean;
  search?: string;
  /** Category ids or slugs (any of them). */
  categories?: readonly (number | string)[];
  /** Tag ids or slugs (any of them). */
  tags?: readonly (number | string)[];
  venue?: readonly number[];
  organizer?: readonly number[];
  featured?: boolean;
  /** Post statuses, comma-separated or one (`publish`, `draft`, `trash`…; the plugin refuses `any`). */
  status?: string;
  geoloc?: boolean;
  geoloc_lat?: number;
  geoloc_lng?: number;
  /** Event ids; date filters are then ignored. */
  include?: readonly number[];
  post_parent?: number;
  ticketed?: boolean;
}

/** A venue or organizer in an event body: an id, `{id}`, or the fields of a new one (created, de-duplicated). */
export type LinkedPostInput = number | { id: number } | Record<string, unknown>;

/** Fields of an event on create (`title`, `start_date`, `end_date` required) and update (all optional). */
export interface EventFields {
  title?: string | undefined;
  description?: string | undefined;
  excerpt?: string | undefined;
  slug?: string | undefined;
  author?: number | undefined;
  date?: string | undefined;
  date_utc?: string | undefined;
  /** `publish`, `draft`, `pending`, `private`, `future`. */
  status?: string | undefined;
  /** `YYYY-MM-DD HH:MM:SS`, read in `timezone` when given, else in the site's zone. */
  start_date?: string | undefined;
  end_date?: string | undefined;
  /** IANA name (`Europe/Berlin`) or `UTC+2`. */
  timezone?: string | undefined;
  all_day?: boolean | undefined;
  /** Attachment id or an image URL (side-loaded); sent as a string, the only type the plugin takes. */
  image?: number | string | undefined;
  cost?: string | undefined;
  website?: string | undefined;
  show_map?: boolean | undefined;
  show_map_link?: boolean | undefined;
  hide_from_listings?: boolean | undefined;
  sticky?: boolean | undefined;
  featured?: boolean | undefined;
  /** Ids or names; `[]` removes every term. */
  categories?: readonly (number | string)[] | undefined;
  tags?: readonly (number | string)[] | undefined;
  venue?: LinkedPostInput | LinkedPostInput[] | undefined;
  organizer?: LinkedPostInput | LinkedPostInput[] | undefined;
}

/** An event by numeric id, or by slug. */
export type EventRef = number | string;

/** `/events`. Reads are public; writes need credentials with the event capabilities. */
export class EventsApi {
  constructor(private readonly session: CalendarSession) {}

  /** One page of events matching the filters (upcoming ones by default, as the plugin decides). */
  list(query: EventListQuery = {}): Promise<CalendarPage<CalendarEvent>> {
    const { per_page, ...rest } = query;
    const params: Record<string, QueryValue> = {
      ...rest,
      per_page: per_page === undefined ? undefined : Math.min(Math.max(1, per_page), MAX_PER_PAGE),
    };
    return this.session.page(
      {
        method: 'GET',
        path: '/events',
        route: '/events',
        schema: pageSchema('events', EventSchema),
        action: 'calendar-api-action-list-events',
        subject: { kind: 'events' },
        query: params,
      },
      query.page ?? 1,
    );
  }

  /**
   * One event; `password` for a password-protected one. A slug that is gone may be a trashed
   * event's: WordPress renamed it `<slug>__trashed`, so that name is tried before "does not exist".
   */
  get(ref: EventRef, options: { password?: string } = {}): Promise<CalendarEvent> {
    return withTrashedSlug(ref, (target) => {
      const { path, route } = itemPath('events', target);
      return this.session.call({
        method: 'GET',
        path,
        route,
        schema: EventSchema,
        action: 'calendar-api-action-read-event',
        subject: { kind: 'event', ref },
        query: { password: options.password },
      });
    });
  }

  /** Creates an event (201); it is published unless `status` says otherwise or the account may not. */
  create(fields: EventFields & Required<Pick<EventFields, 'title' | 'start_date' | 'end_date'>>) {
    return this.session.call({
      method: 'POST',
      path: '/events',
      route: '/events',
      schema: EventSchema,
      action: 'calendar-api-action-create-events',
      subject: { kind: 'event' },
      auth: true,
      body: definedOnly({ ...fields, image: imageParam(fields.image) }),
    });
  }

  /**
   * Changes the given fields of an event and keeps the others. The plugin resets every field an
   * update does not send (status, all-day, zone, cost, website, organizers, image, flags), so the
   * event is read first (or `current` is used) and those fields are written back (write-back.ts).
   */
  async update(ref: EventRef, fields: EventFields, current?: CalendarEvent): Promise<CalendarEvent> {
    const event = current ?? (await this.get(ref));
    return this.session.call({
      method: 'POST',
      path: `/events/${event.id}`,
      route: '/events/{id}',
      schema: EventSchema,
      action: 'calendar-api-action-update-event',
      subject: { kind: 'event', ref },
      auth: true,
      body: eventUpdateBody(event, fields),
    });
  }

  /** Moves an event to the trash and returns it (a second delete answers 410 "already in the trash"). */
  delete(ref: EventRef): Promise<CalendarEvent> {
    return withTrashedSlug(ref, (target) => {
      const { path, route } = itemPath('events', target);
      return this.session.call({
        method: 'DELETE',
        path,
        route,
        schema: EventSchema,
        action: 'calendar-api-action-cancel-event',
        subject: { kind: 'event', ref },
        auth: true,
      });
    });
  }
}

/**
 * Runs `call` with `ref`; when `ref` is a slug the site does not know, once more with
 * `<slug>__trashed` — the name `wp_trash_post` gives a trashed post, which `by-slug/<slug>` no longer
 * finds (`is_event_slug` answers 400). The second call's answer (in the trash, already in the trash)
 * is the one that says what happened; if that slug is unknown too, the first error stands.
 */
async function withTrashedSlug<T>(ref: EventRef, call: (target: EventRef) => Promise<T>): Promise<T> {
  try {
    return await call(ref);
  } catch (error) {
    const slug = String(ref).trim();
    if (!(error instanceof NotFoundError) || /^\d+$/.test(slug) || slug.endsWith('__trashed')) throw error;
    try {
      return await call(`${slug}__trashed`);
    } catch (second) {
      throw second instanceof NotFoundError ? error : second;
    }
  }
}
