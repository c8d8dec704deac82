/** The facade over the calendar's resources, for one set of credentials. */
import { EventsApi } from './events';
import { LinkedPostsApi, type OrganizerFields, type VenueFields } from './linked-posts';
import {
  AnyJsonSchema,
  type CalendarOrganizer,
  type CalendarSite,
  type CalendarVenue,
  OrganizerSchema,
  SiteIndexSchema,
  VenueSchema,
} from './schemas';
import type { CalendarSession } from './session';
import { TermsApi } from './terms';

/**
 * Everything Deckhand can do on the calendar as one WordPress user (or anonymously: public reads):
 * `client.events.create({...})`, `client.venues.list({ search })`, `client.categories.create({ name })`.
 * Get one from {@link CalendarService.forUser}; it is cheap.
 */
export class CalendarClient {
  /** Events. */
  readonly events: EventsApi;
  /** Venues. */
  readonly venues: LinkedPostsApi<CalendarVenue, VenueFields>;
  /** Organizers. */
  readonly organizers: LinkedPostsApi<CalendarOrganizer, OrganizerFields>;
  /** Event categories. */
  readonly categories: TermsApi;
  /** Tags (WordPress's global post tags). */
  readonly tags: TermsApi;

  constructor(private readonly session: CalendarSession) {
    this.events = new EventsApi(session);
    this.venues = new LinkedPostsApi(session, { collection: 'venues', singular: 'venue' }, VenueSchema);
    this.organizers = new LinkedPostsApi(
      session,
      { collection: 'organizers', singular: 'organizer' },
      OrganizerSchema,
    );
    this.categories = new TermsApi(session, 'categories');
    this.tags = new TermsApi(session, 'tags');
  }

  /** The WordPress user calls are made as; undefined for anonymous (read-only) clients. */
  get user(): string | undefined {
    return this.session.user;
  }

  /** The site's public address. */
  get siteUrl(): string {
    return this.session.siteUrl;
  }

  /** The site: name, home address and time zone (the WordPress REST index). */
  site(): Promise<CalendarSite> {
    return this.session.callRoot({
      method: 'GET',
      path: '/',
      route: '/',
      schema: SiteIndexSchema,
      action: 'calendar-api-action-read-site',
      subject: { kind: 'site' },
    });
  }

  /** The namespace index (`GET /`): the plugin's routes, as the site describes them. */
  namespaceIndex(): Promise<unknown> {
    return this.session.call({
      method: 'GET',
      path: '/',
      route: '/',
      schema: AnyJsonSchema,
      action: 'calendar-api-action-read-index',
      subject: { kind: 'index' },
    });
  }

  /** The plugin's own Swagger description of the API (`GET /doc`). */
  doc(): Promise<unknown> {
    return this.session.call({
      method: 'GET',
      path: '/doc',
      route: '/doc',
      schema: AnyJsonSchema,
      action: 'calendar-api-action-read-documentation',
      subject: { kind: 'documentation' },
    });
  }
}
