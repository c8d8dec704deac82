/**
 * The bodies of updates that keep what they do not change. The plugin's update endpoints rebuild
 * the post from the request and reset what is absent (the-events-calendar 6.17.2,
 * `src/Tribe/REST/V1/Endpoints/Single_Event.php` `prepare_postarr()`, `src/Tribe/API.php`
 * `prepare_event_date_meta()`; `Single_Venue.php`, `Single_Organizer.php`, `src/Tribe/Venue.php`):
 * an event sent `{title}` alone goes public, loses all-day, its zone (without its UTC times being
 * recomputed), cost, website, organizers, image and flags. So an update reads the current state and
 * writes back every field the plugin would otherwise reset, with the changes on top.
 */
import type { EventFields } from './events';
import type { OrganizerFields, VenueFields } from './linked-posts';
import type { CalendarEvent, CalendarOrganizer, CalendarVenue } from './schemas';
import { decodeEntities } from './text';

/** An image value as the plugin takes it: `image` is `'type' => 'string'`, so an id goes as `"22"`. */
export function imageParam(image: number | string | undefined): string | undefined {
  return image === undefined ? undefined : String(image);
}

/** The fields of `current` the plugin would reset on an update that does not send them. */
export function eventKeptFields(current: CalendarEvent): EventFields {
  const venues = current.venues.map((v) => v.id);
  const organizers = current.organizers.map((o) => o.id);
  return {
    status: current.status,
    all_day: current.allDay,
    // The stored wall-clock dates with their zone: sent together, the UTC dates stay right.
    timezone: current.timezone,
    start_date: current.startDate,
    end_date: current.endDate,
    // As the API shows it (with its currency symbol, which the plugin parses again on save), and
    // without the HTML escaping of Post_Repository (`esc_html`), which would be stored as typed.
    cost: decodeEntities(current.cost),
    // Without a website of its own, the API shows the event's page: that is not a value to store.
    website: current.website && current.website !== current.url ? decodeEntities(current.website) : '',
    ...(current.image?.id ? { image: String(current.image.id) } : {}),
    ...(venues.length === 1 ? { venue: venues[0] } : venues.length > 1 ? { venue: venues } : {}),
    ...(organizers.length > 0 ? { organizer: organizers } : {}),
    show_map: current.showMap ?? true,
    show_map_link: current.showMapLink ?? true,
    hide_from_listings: current.hideFromListings,
    sticky: current.sticky,
    featured: current.featured,
  };
}

/** An event update body: what is kept, then the changes. */
export function eventUpdateBody(current: CalendarEvent, changes: EventFields): Record<string, unknown> {
  const body: Record<string, unknown> = { ...eventKeptFields(current) };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) body[key] = value;
  if (body.image !== undefined) body.image = imageParam(body.image as number | string);
  return body;
}

/** A venue update body: status, map switches, image and state/province kept, then the changes. */
export function venueUpdateBody(current: CalendarVenue, changes: VenueFields): Record<string, unknown> {
  const raw = current as CalendarVenue & { show_map?: boolean; show_map_link?: boolean };
  const region = changes.state ?? changes.province ?? changes.stateprovince;
  const body: Record<string, unknown> = {
    ...(current.status ? { status: current.status } : {}),
    show_map: raw.show_map ?? true,
    show_map_link: raw.show_map_link ?? true,
    ...(current.image?.id ? { image: String(current.image.id) } : {}),
    ...(region === undefined && current.stateprovince ? { stateprovince: current.stateprovince } : {}),
  };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) body[key] = value;
  if (body.image !== undefined) body.image = imageParam(body.image as number | string);
  return body;
}

/** An organizer update body: status and image kept, then the changes. */
export function organizerUpdateBody(
  current: CalendarOrganizer,
  changes: OrganizerFields,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...(current.status ? { status: current.status } : {}),
    ...(current.image?.id ? { image: String(current.image.id) } : {}),
  };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) body[key] = value;
  if (body.image !== undefined) body.image = imageParam(body.image as number | string);
  return body;
}
