/**
 * Typed client of The Events Calendar's REST API v1 (WordPress), as specs/calendar describes it.
 *
 * ```ts
 * const calendar = new CalendarService({ restRoot: 'https://example.org/wp-json', credentials });
 * const client = await calendar.forUser(invocation.user);
 * const page = await client.events.list({ search: 'hack', per_page: 10 });
 * const event = await client.events.create({ title, start_date, end_date, venue: 12 });
 * ```
 */
export { CalendarClient } from './client';
export * from './dates';
export {
  applicationPasswordLink,
  calendarError,
  type ErrorSubject,
  errorCode,
  InTrashError,
  readCalendarError,
} from './errors';
export {
  type EventFields,
  type EventListQuery,
  type EventRef,
  EventsApi,
  type LinkedPostInput,
  MAX_PER_PAGE,
} from './events';
export {
  type LinkedPostListQuery,
  LinkedPostsApi,
  type OrganizerFields,
  type VenueFields,
} from './linked-posts';
export * from './schemas';
export {
  type CalendarCredentialSource,
  CalendarService,
  type CalendarServiceOptions,
  DEFAULT_NAMESPACE,
  siteUrlOf,
} from './service';
export { type CalendarCredentials, CalendarSession, itemPath } from './session';
export { type TermFields, type TermListQuery, TermsApi } from './terms';
export { decodeEntities, htmlToText } from './text';
export {
  eventKeptFields,
  eventUpdateBody,
  imageParam,
  organizerUpdateBody,
  venueUpdateBody,
} from './write-back';
