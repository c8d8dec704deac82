/** The event card: what, when (in the site's time zone), where, the link, and Open / Edit / Cancel. */

import { actionTo } from '../../src/core/action-ref';
import type { CardField, CardStatus, DraftCard } from '../../src/core/reply';
import type { Translator } from '../../src/i18n/translate';
import { type CalendarEvent, formatWhen, sameZone } from '../../src/services/calendar';
import { eventCancelSignature, eventEditSignature } from './signatures';

/** Words for the statuses an event may have (none for a published one). */
function statusNote(say: Translator, status: string): string | undefined {
  switch (status) {
    case 'draft':
      return say.t('event-status-draft');
    case 'pending':
      return say.t('event-status-pending');
    case 'private':
      return say.t('event-status-private');
    case 'future':
      return say.t('event-status-future');
    case 'trash':
      return say.t('event-status-trash');
    default:
      return undefined;
  }
}

/** Plain text, shortened to `max` characters. */
export function clip(text: string, max: number): string {
  const flat = text.trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The venue in one line: `Main Hall, Hauptstraße 1, Berlin`. */
export function venueLine(event: CalendarEvent, say: Translator): string | undefined {
  if (event.venues.length === 0) return undefined;
  return event.venues
    .map((v) => [v.name || say.t('venue-unnamed', v.id), v.address, v.city].filter(Boolean).join(', '))
    .join('; ');
}

/**
 * The card of one event. `siteZone` is the calendar site's time zone: times are shown in it (and
 * in the event's own zone too when that differs).
 */
export function eventCard(
  event: CalendarEvent,
  siteZone: string,
  say: Translator,
  options: { note?: string; status?: CardStatus; buttons?: boolean } = {},
): DraftCard {
  const fields: CardField[] = [{ label: say.t('event-card-when'), value: formatWhen(event, siteZone) }];
  if (!event.allDay && !sameZone(event.timezone, siteZone)) {
    fields.push({ label: say.t('event-card-local-time'), value: formatWhen(event, event.timezone) });
  }
  const venue = venueLine(event, say);
  if (venue) fields.push({ label: say.t('event-card-venue'), value: venue });
  if (event.organizers.length > 0) {
    fields.push({
      label: say.t('event-card-organizer'),
      value: event.organizers.map((o) => o.name || `#${o.id}`).join(', '),
    });
  }
  const terms = [...event.categories.map((c) => c.name), ...event.tags.map((t) => `#${t.name}`)];
  if (terms.length > 0)
    fields.push({ label: say.t('event-card-categories'), value: terms.join(', '), inline: true });
  if (event.cost) fields.push({ label: say.t('event-card-cost'), value: event.cost, inline: true });
  if (event.website && event.website !== event.url)
    fields.push({ label: say.t('event-card-website'), value: event.website });
  const note = statusNote(say, event.status);
  const text = [options.note, event.description ? clip(event.description, 500) : undefined, note]
    .filter(Boolean)
    .join('\n\n');
  const trashed = event.status === 'trash';
  return {
    title: event.title || say.t('event-card-untitled', event.id),
    ...(text ? { text } : {}),
    status: options.status ?? (trashed ? 'warning' : 'info'),
    fields,
    links: [
      // A trashed event's page is offline (its address ends in `__trashed/`): nothing to open.
      ...(trashed ? [] : [{ label: say.t('event-card-open'), url: event.url }]),
      ...(event.image ? [{ label: say.t('event-card-image'), url: event.image.url }] : []),
    ],
    ...(options.buttons === false || trashed
      ? {}
      : {
          actions: [
            actionTo(eventEditSignature, { ref: String(event.id) }, { label: say.t('event-card-edit') }),
            actionTo(
              eventCancelSignature,
              { ref: String(event.id) },
              { label: say.t('event-card-cancel'), style: 'danger' },
            ),
          ],
        }),
    footer: event.featured
      ? say.t('event-card-footer-featured', event.id)
      : say.t('event-card-footer', event.id),
  };
}
