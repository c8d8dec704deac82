/**
 * Venues and organizers: the plugin's "linked posts", with the same routes and list filters
 * (`/venues`, `/venues/{id}`, `/venues/by-slug/{slug}`; the same for `/organizers`).
 */
import type { z } from 'zod';
import { CALENDAR_ACTIONS } from './errors';
import type { CalendarOrganizer, CalendarPage, CalendarVenue } from './schemas';
import { pageSchema } from './schemas';
import { type CalendarSession, definedOnly, itemPath } from './session';
import { imageParam, organizerUpdateBody, venueUpdateBody } from './write-back';

/** Filters of `GET /venues` and `GET /organizers`. */
export interface LinkedPostListQuery {
  page?: number;
  /** At most 50. */
  per_page?: number;
  /** Text in the name, description or custom fields. */
  search?: string;
  /** Only those of this event. */
  event?: number;
  has_events?: boolean;
  only_with_upcoming?: boolean;
  status?: string;
}

/** Fields of a venue (`venue` is its name, required on create). */
export interface VenueFields {
  venue?: string | undefined;
  description?: string | undefined;
  status?: string | undefined;
  author?: number | undefined;
  date?: string | undefined;
  date_utc?: string | undefined;
  address?: string | undefined;
  city?: string | undefined;
  country?: string | undefined;
  province?: string | undefined;
  state?: string | undefined;
  stateprovince?: string | undefined;
  zip?: string | undefined;
  phone?: string | undefined;
  website?: string | undefined;
  image?: number | string | undefined;
  show_map?: boolean | undefined;
  show_map_link?: boolean | undefined;
}

/** Fields of an organizer (`organizer` is its name, required on create). */
export interface OrganizerFields {
  organizer?: string | undefined;
  description?: string | undefined;
  status?: string | undefined;
  author?: number | undefined;
  date?: string | undefined;
  date_utc?: string | undefined;
  phone?: string | undefined;
  website?: string | undefined;
  email?: string | undefined;
  image?: number | string | undefined;
}

/** `venues`/`venue` or `organizers`/`organizer`. */
interface Kind {
  collection: 'venues' | 'organizers';
  singular: 'venue' | 'organizer';
}

/** List, read, create, update and trash one kind of linked post. */
export class LinkedPostsApi<T, Fields extends object> {
  constructor(
    private readonly session: CalendarSession,
    private readonly kind: Kind,
    private readonly schema: z.ZodType<T>,
  ) {}

  /** One page (public). */
  list(query: LinkedPostListQuery = {}): Promise<CalendarPage<T>> {
    const { per_page, ...rest } = query;
    return this.session.page(
      {
        method: 'GET',
        path: `/${this.kind.collection}`,
        route: `/${this.kind.collection}`,
        schema: pageSchema(this.kind.collection, this.schema),
        action: CALENDAR_ACTIONS[this.kind.collection].list,
        subject: { kind: this.kind.collection },
        query: {
          ...rest,
          per_page: per_page === undefined ? undefined : Math.min(Math.max(1, per_page), 50),
        },
      },
      query.page ?? 1,
    );
  }

  /** One by id or slug. */
  get(ref: number | string): Promise<T> {
    const { path, route } = itemPath(this.kind.collection, ref);
    return this.session.call({
      method: 'GET',
      path,
      route,
      schema: this.schema,
      action: CALENDAR_ACTIONS[this.kind.collection].read,
      subject: { kind: this.kind.singular, ref },
    });
  }

  /** Creates one (the plugin returns an existing identical one instead of a duplicate). */
  create(fields: Fields): Promise<T> {
    return this.session.call({
      method: 'POST',
      path: `/${this.kind.collection}`,
      route: `/${this.kind.collection}`,
      schema: this.schema,
      action: CALENDAR_ACTIONS[this.kind.collection].create,
      subject: { kind: this.kind.singular },
      auth: true,
      body: definedOnly({
        ...fields,
        image: imageParam((fields as { image?: number | string }).image),
      }) as Record<string, unknown>,
    });
  }

  /**
   * Changes the given fields and keeps the others: the plugin publishes a venue or organizer whose
   * update has no `status`, drops its image, and for a venue turns the map switches on and empties
   * its state/province (Single_Venue.php, Single_Organizer.php, Venue.php 6.17.2); so it is read
   * first and those are written back (write-back.ts).
   */
  async update(ref: number | string, fields: Fields): Promise<T> {
    const current = await this.get(ref);
    const id = (current as { id: number }).id;
    const body =
      this.kind.singular === 'venue'
        ? venueUpdateBody(current as unknown as CalendarVenue, fields as VenueFields)
        : organizerUpdateBody(current as unknown as CalendarOrganizer, fields as OrganizerFields);
    return this.session.call({
      method: 'POST',
      path: `/${this.kind.collection}/${id}`,
      route: `/${this.kind.collection}/{id}`,
      schema: this.schema,
      action: CALENDAR_ACTIONS[this.kind.collection].update,
      subject: { kind: this.kind.singular, ref },
      auth: true,
      body,
    });
  }

  /** Moves one to the trash and returns it. */
  delete(ref: number | string): Promise<T> {
    const { path, route } = itemPath(this.kind.collection, ref);
    return this.session.call({
      method: 'DELETE',
      path,
      route,
      schema: this.schema,
      action: CALENDAR_ACTIONS[this.kind.collection].delete,
      subject: { kind: this.kind.singular, ref },
      auth: true,
    });
  }
}
