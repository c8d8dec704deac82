/** The event card: what, when (in the site's time zone), where, the link, and Open / Edit / Cancel. */

import { actionTo } from '../../src/core/action-ref';
import type { CardField, CardStatus, DraftCard } from '../../src/core/reply';
import { type CalendarEvent, formatWhen, sameZone } from '../../src/services/calendar';
import { eventCancelSignature, eventEditSignature } from './signatures';

/** Words for the statuses an event may have. */
const STATUS_NOTE: Record<string, string> = {
  draft: 'Draft: not public yet.',
  pending: 'Pending review: an editor has to publish it.',
  private: 'Private: only logged-in editors see it.',
  future: 'Scheduled: it will be published later.',
  trash: 'In the trash (restore it in WordPress under Events → Trash).',
};

/** Plain text, shortened to `max` characters. */
export function clip(text: string, max: number): string {
  const flat = text.trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The venue in one line: `Main Hall, Hauptstraße 1, Berlin`. */
export function venueLine(event: CalendarEvent): string | undefined {
  if (event.venues.length === 0) return undefined;
  return event.venues
    .map((v) => [v.name || `venue #${v.id}`, v.address, v.city].filter(Boolean).join(', '))
    .join('; ');
}

/**
 * The card of one event. `siteZone` is the calendar site's time zone: times are shown in it (and
 * in the event's own zone too when that differs).
 */
export function eventCard(
  event: CalendarEvent,
  siteZone: string,
  options: { note?: string; status?: CardStatus; buttons?: boolean } = {},
): DraftCard {
  const fields: CardField[] = [{ label: 'When', value: formatWhen(event, siteZone) }];
  if (!event.allDay && !sameZone(event.timezone, siteZone)) {
    fields.push({ label: 'Local time', value: formatWhen(event, event.timezone) });
  }
  const venue = venueLine(event);
  if (venue) fields.push({ label: 'Venue', value: venue });
  if (event.organizers.length > 0) {
    fields.push({ label: 'Organizer', value: event.organizers.map((o) => o.name || `#${o.id}`).join(', ') });
  }
  const terms = [...event.categories.map((c) => c.name), ...event.tags.map((t) => `#${t.name}`)];
  if (terms.length > 0) fields.push({ label: 'Categories', value: terms.join(', '), inline: true });
  if (event.cost) fields.push({ label: 'Cost', value: event.cost, inline: true });
  if (event.website && event.website !== event.url) fields.push({ label: 'Website', value: event.website });
  const statusNote = STATUS_NOTE[event.status];
  const text = [options.note, event.description ? clip(event.description, 500) : undefined, statusNote]
    .filter(Boolean)
    .join('\n\n');
  const trashed = event.status === 'trash';
  return {
    title: event.title || `Event #${event.id}`,
    ...(text ? { text } : {}),
    status: options.status ?? (trashed ? 'warning' : 'info'),
    fields,
    links: [
      // A trashed event's page is offline (its address ends in `__trashed/`): nothing to open.
      ...(trashed ? [] : [{ label: 'Open', url: event.url }]),
      ...(event.image ? [{ label: 'Image', url: event.image.url }] : []),
    ],
    ...(options.buttons === false || trashed
      ? {}
      : {
          actions: [
            actionTo(eventEditSignature, { ref: String(event.id) }, { label: 'Edit' }),
            actionTo(
              eventCancelSignature,
              { ref: String(event.id) },
              { label: 'Cancel event', style: 'danger' },
            ),
          ],
        }),
    footer: `event #${event.id}${event.featured ? ' · featured' : ''}`,
  };
}
