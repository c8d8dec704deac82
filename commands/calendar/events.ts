/** `/events`: the upcoming events (or those matching filters) as a list card with paging buttons. */
import type { DateTime } from 'luxon';
import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import { UsageError } from '../../src/core/errors';
import type { ActionRequest, CardField, DraftCard } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import {
  type CalendarClient,
  type CalendarEvent,
  type CalendarPage,
  type EventListQuery,
  formatWhen,
  nowIn,
  toQueryBound,
} from '../../src/services/calendar';
import { dateText, nameOrId, pageNumber, readDate } from './calendar-args';
import { calendarFor, pageFooter } from './calendar-common';
import { Ambiguous, resolveNames } from './calendar-resolve';
import { command } from './context';
import { clip, venueLine } from './event-card';

/**
 * The statuses `/events --status` takes: WordPress's own for posts (the plugin checks them in
 * `Archive_Base.php` `filter_post_status_list()`; `trash` lists cancelled events).
 */
const EVENT_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;

/** Events per page of a list card. */
export const EVENTS_PER_PAGE = 10;

const listArgs = z.object({
  search: z.string().trim().min(1).max(200).optional().describe('opt-search'),
  from: dateText('opt-from').optional(),
  to: dateText('opt-to-events').optional(),
  category: z.array(nameOrId('opt-category-one')).default([]).describe('opt-category-events'),
  tag: z.array(nameOrId('opt-tag-one')).default([]).describe('opt-tag-events'),
  venue: z.array(nameOrId('opt-venue')).default([]).describe('opt-venue-events'),
  organizer: z.array(nameOrId('opt-organizer-one')).default([]).describe('opt-organizer-events'),
  status: z.array(z.enum(EVENT_STATUSES)).default([]).describe('opt-status-events'),
  featured: z.boolean().default(false).describe('opt-featured-events'),
  drafts: z.boolean().default(false).describe('opt-drafts'),
  page: pageNumber,
});

/** One line per event: when (site time), then title, venue and id. */
export function eventLines(events: CalendarEvent[], zone: string, say: Translator): CardField[] {
  return events.map((event) => {
    const when = formatWhen(event, zone).replace(` (${zone})`, '');
    const venue = venueLine(event, say)?.split(',')[0];
    const status = event.status === 'publish' ? '' : ` [${event.status}]`;
    return {
      label: when,
      value: `${clip(event.title, 120)}${venue ? ` · ${venue}` : ''} · #${event.id}${status}`,
      url: event.url,
    };
  });
}

/** The list card of one page of events. */
export function eventListCard(
  page: CalendarPage<CalendarEvent>,
  zone: string,
  title: string,
  pageAction: (page: number) => ActionRequest,
  say: Translator,
): DraftCard {
  if (page.items.length === 0) {
    return { title, text: say.t('events-none'), status: 'info' };
  }
  const actions: ActionRequest[] = [];
  if (page.page > 1) actions.push({ ...pageAction(page.page - 1), label: say.t('calendar-page-previous') });
  if (page.nextUrl || page.page < page.totalPages)
    actions.push({ ...pageAction(page.page + 1), label: say.t('calendar-page-next') });
  return {
    title,
    status: 'info',
    fields: eventLines(page.items, zone, say),
    ...(actions.length ? { actions } : {}),
    footer: pageFooter(page, 'event', say, zone),
  };
}

/**
 * The date filters for "events that start between `start` and `end`" (`end` included): the plugin's
 * `start_date` keeps events starting on or after it, and `starts_before` (strictly before) is sent
 * one second after `end` — its `end_date` would instead drop events that end after the window.
 * `ongoing`: the default list from now, which also shows events still running (`ends_after`).
 */
export function startWindow(
  start: DateTime,
  end: DateTime | undefined,
  ongoing = false,
): Pick<EventListQuery, 'start_date' | 'ends_after' | 'starts_before'> {
  return {
    ...(ongoing ? { ends_after: toQueryBound(start) } : { start_date: toQueryBound(start) }),
    ...(end ? { starts_before: toQueryBound(end.plus({ seconds: 1 })) } : {}),
  };
}

/** The statuses asked for: `--status` as given, every live one with `--drafts`, else published. */
function statusesOf(args: { status: readonly string[]; drafts: boolean }): string[] {
  if (args.status.length > 0) return [...new Set(args.status)];
  return args.drafts ? ['publish', 'future', 'draft', 'pending', 'private'] : ['publish'];
}

/** Reads a list's filters into the API's query (dates in the site's zone; names to ids). */
async function listQuery(
  client: CalendarClient,
  args: z.infer<typeof listArgs>,
  zone: string,
): Promise<EventListQuery> {
  const from = args.from === undefined ? undefined : readDate(args.from, zone, '--from');
  const to = args.to === undefined ? undefined : readDate(args.to, zone, '--to');
  if (from && to && to.dateTime < from.dateTime) {
    throw UsageError.inWords((say) => ({
      message: say.t('events-to-before-from'),
      hint: say.t('events-to-before-from-hint'),
    }));
  }
  const categories = await resolveNames(client, 'category', args.category);
  const tags = await resolveNames(client, 'tag', args.tag);
  const venues = await resolveNames(client, 'venue', args.venue);
  const organizers = await resolveNames(client, 'organizer', args.organizer);
  if (categories instanceof Ambiguous || tags instanceof Ambiguous) {
    throw UsageError.inWords((say) => ({ message: say.t('events-term-ambiguous') }));
  }
  // A venue or organizer name several share lists the events of all of them.
  const venueIds = venues instanceof Ambiguous ? venues.candidates.map((c) => c.id) : venues;
  const organizerIds = organizers instanceof Ambiguous ? organizers.candidates.map((c) => c.id) : organizers;
  // Bounds are computed here (a bare day covers the whole day) and sent as exact moments with an
  // offset (toQueryBound: the plugin reads strict bounds as UTC otherwise).
  const start = from ? (from.hasTime ? from.dateTime : from.dateTime.startOf('day')) : undefined;
  const end = to ? (to.hasTime ? to.dateTime : to.dateTime.endOf('day').set({ millisecond: 0 })) : undefined;
  return {
    page: args.page,
    per_page: EVENTS_PER_PAGE,
    ...startWindow(start ?? nowIn(zone), end, start === undefined),
    strict_dates: true,
    ...(args.search ? { search: args.search } : {}),
    ...(categories.length ? { categories } : {}),
    ...(tags.length ? { tags } : {}),
    ...(venueIds.length ? { venue: venueIds } : {}),
    ...(organizerIds.length ? { organizer: organizerIds } : {}),
    ...(args.featured ? { featured: true } : {}),
    status: statusesOf(args).join(','),
  };
}

/**
 * `/events [--search TEXT] [--from DATE] [--to DATE] [--category …] [--tag …] [--venue …]
 * [--organizer …] [--status …] [--featured] [--drafts] [--page N]`.
 */
export const eventsCommand = command({
  name: 'events',
  args: listArgs,
  examples: [
    '/events',
    '/events --search hack',
    '/events --from 2026-12-01 --to 2026-12-31 --category Meetup',
    '/events --organizer "Meetup Team" --status draft',
  ],
  permission: 'read',
  async run({ args, services, invocation, say = translator('en') }): Promise<DraftCard> {
    const { client, zone } = await calendarFor(services, invocation.user);
    // Anything but published events needs the account (anonymous readers may ask for `publish` only).
    const published = statusesOf(args).every((status) => status === 'publish');
    const reader = published ? services.calendar.anonymous() : client;
    const page = await reader.events.list(await listQuery(client, args, zone));
    const title = args.search
      ? say.t('events-title-search', args.search)
      : args.from || args.status.length > 0
        ? say.t('events-title')
        : say.t('events-title-upcoming');
    return eventListCard(
      page,
      zone,
      title,
      (n) => actionTo(eventsCommand, { ...args, page: n }, { label: String(n) }),
      say,
    );
  },
});
