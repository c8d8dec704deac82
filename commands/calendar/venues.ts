/** `/venues list|create` and `/organizers list|create`. */
import { z } from 'zod';
import type { CardField, DraftCard } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import type { CalendarOrganizer, CalendarPage, CalendarVenue } from '../../src/services/calendar';
import { nonEmptyText, organizerDetails, pageNumber, venueDetails } from './calendar-args';
import { calendarFor, pageFooter } from './calendar-common';
import { command } from './context';

const PER_PAGE = 20;

const listArgs = z.object({
  search: z.string().trim().min(1).max(200).optional().describe('opt-search-venues-list'),
  page: pageNumber,
});

function listCard<T>(
  page: CalendarPage<T>,
  what: 'venue' | 'organizer',
  line: (item: T, say: Translator) => CardField,
  search: string | undefined,
  say: Translator,
): DraftCard {
  const title =
    what === 'venue'
      ? search
        ? say.t('venue-list-title-search', search)
        : say.t('venue-list-title')
      : search
        ? say.t('organizer-list-title-search', search)
        : say.t('organizer-list-title');
  if (page.items.length === 0)
    return {
      title,
      text: what === 'venue' ? say.t('venue-list-none') : say.t('organizer-list-none'),
      status: 'info',
    };
  const command = what === 'venue' ? 'venues list' : 'organizers list';
  const actions = [
    ...(page.page > 1
      ? [{ label: say.t('calendar-page-previous'), command, args: { search, page: page.page - 1 } }]
      : []),
    ...(page.nextUrl
      ? [{ label: say.t('calendar-page-next'), command, args: { search, page: page.page + 1 } }]
      : []),
  ];
  return {
    title,
    status: 'info',
    fields: page.items.map((item) => line(item, say)),
    ...(actions.length ? { actions } : {}),
    footer: pageFooter(page, what, say),
  };
}

/** One line of a venue: name, address, status. */
export function venueField(venue: CalendarVenue, say: Translator): CardField {
  const where = [venue.address, venue.zip, venue.city, venue.country].filter(Boolean).join(', ');
  return {
    label: `#${venue.id}`,
    value: `${venue.name || say.t('venue-hidden')}${where ? ` — ${where}` : ''}${venue.status && venue.status !== 'publish' ? ` [${venue.status}]` : ''}`,
    ...(venue.url ? { url: venue.url } : {}),
  };
}

/** One line of an organizer: name and contact. */
export function organizerField(organizer: CalendarOrganizer, say: Translator): CardField {
  const contact = [organizer.email, organizer.phone, organizer.website].filter(Boolean).join(', ');
  return {
    label: `#${organizer.id}`,
    value: `${organizer.name || say.t('organizer-hidden')}${contact ? ` — ${contact}` : ''}`,
    ...(organizer.url ? { url: organizer.url } : {}),
  };
}

/** `/venues create "<name>" [--address …] [--city …] …`. */
export const venuesCreateCommand = command({
  name: 'venues create',
  args: z.object({
    name: nonEmptyText(200).describe('opt-name-venues-create'),
    ...venueDetails,
  }),
  positional: ['name'],
  examples: ['/venues create "Main Hall" --address "Hauptstraße 1" --city Berlin'],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en') }) {
    const { client } = await calendarFor(services, invocation.user);
    const { name, ...rest } = args;
    const venue = await client.venues.create({ venue: name, ...rest });
    return {
      text: say.t('venue-created', venue.name, venue.id),
      status: 'success',
      fields: [venueField(venue, say)],
    };
  },
});

/** `/venues list` or `/organizers list`: the linked posts of one type, a page at a time, by search. */
function linkedListCommand<T>(
  what: 'venue' | 'organizer',
  line: (item: T, say: Translator) => CardField,
  declared: { examples?: readonly string[] },
) {
  const collection = what === 'venue' ? 'venues' : 'organizers';
  return command({
    name: `${collection} list`,
    ...declared,
    args: listArgs,
    permission: 'read',
    async run({ args, services, say = translator('en') }) {
      const posts = services.calendar.anonymous()[collection];
      const page = await posts.list({
        per_page: PER_PAGE,
        page: args.page,
        ...(args.search ? { search: args.search } : {}),
      });
      return listCard(page as CalendarPage<T>, what, line, args.search, say);
    },
  });
}

/** `/venues list [--search TEXT] [--page N]`. */
export const venuesListCommand = linkedListCommand('venue', venueField, {
  examples: ['/venues list', '/venues list --search hall'],
});

/** `/organizers list [--search TEXT] [--page N]`. */
export const organizersListCommand = linkedListCommand('organizer', organizerField, {});

/** `/organizers create "<name>" [--email …] [--phone …] [--website …]`. */
export const organizersCreateCommand = command({
  name: 'organizers create',
  args: z.object({
    name: nonEmptyText(200).describe('opt-name-organizers-create'),
    ...organizerDetails,
  }),
  positional: ['name'],
  examples: ['/organizers create "Meetup Team" --email team@example.org'],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en') }) {
    const { client } = await calendarFor(services, invocation.user);
    const { name, ...rest } = args;
    const organizer = await client.organizers.create({ organizer: name, ...rest });
    return {
      text: say.t('organizer-created', organizer.name, organizer.id),
      status: 'success',
      fields: [organizerField(organizer, say)],
    };
  },
});
