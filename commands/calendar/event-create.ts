/**
 * `/event create` and `/event new` (the same fields as a form). Everything is checked before the
 * first write — dates, time zone, venue, organizers, categories, tags — so a bad input creates
 * nothing. The one write that can come first is a new venue (`--create-venue`): if the event then
 * fails, the card says so and offers to retry with that venue.
 */
import { z } from 'zod';
import { actionTo, formTarget } from '../../src/core/action-ref';
import { DeckhandError, UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { type EventFields, toApiDate } from '../../src/services/calendar';
import { checkTimezone, dateText, eventTimes, nameOrId, timezoneText, webUrl } from './calendar-args';
import { calendarFor } from './calendar-common';
import { Ambiguous, choiceCard, resolveName, resolveNames, UnknownName } from './calendar-resolve';
import { command } from './context';
import { eventCard } from './event-card';

const createArgs = z.object({
  title: z.string().trim().min(1, 'must not be empty').max(200).describe('opt-title'),
  start: dateText('opt-start'),
  end: dateText('opt-end').optional(),
  allDay: z.boolean().default(false).describe('opt-all-day'),
  timezone: timezoneText.optional(),
  venue: nameOrId('opt-venue').optional(),
  createVenue: z.boolean().default(false).describe('opt-create-venue'),
  organizer: z.array(nameOrId('opt-organizer-one')).default([]).describe('opt-organizer'),
  category: z.array(nameOrId('opt-category-one')).default([]).describe('opt-category'),
  tag: z.array(nameOrId('opt-tag-one')).default([]).describe('opt-tag'),
  cost: z.string().max(100).optional().describe('opt-cost'),
  website: webUrl.optional().describe('opt-website'),
  image: webUrl.optional().describe('opt-image-event-create'),
  description: z.string().max(10_000).optional().describe('opt-description-event-create'),
  featured: z.boolean().default(false).describe('opt-featured'),
  draft: z.boolean().default(false).describe('opt-draft'),
});

type CreateArgs = z.infer<typeof createArgs>;

/** `/event create "<title>" --start … [--end …] [--venue …] …`. */
export const eventCreateCommand = command({
  name: 'event create',
  args: createArgs,
  positional: ['title'],
  examples: [
    '/event create "Hack night" --start "2026-12-01 18:00" --end "2026-12-01 21:00" --venue "Main Hall"',
    '/event create "Summer party" --start 2027-07-03 --all-day --category Meetup',
  ],
  permission: 'write',
  async run({ args, services, invocation }) {
    const { client, zone: siteZone } = await calendarFor(services, invocation.user);
    const zone = args.timezone ? checkTimezone(args.timezone, '--timezone') : siteZone;
    const times = eventTimes(args, zone);
    const raw = args as unknown as Record<string, unknown>;

    let venueId: number | undefined;
    let newVenue: string | undefined;
    if (args.venue !== undefined) {
      try {
        const resolved = await resolveName(client, 'venue', args.venue);
        if (resolved instanceof Ambiguous) {
          return choiceCard(resolved, 'event create', raw, (a, id) => ({ ...a, venue: String(id) }));
        }
        venueId = resolved;
      } catch (error) {
        if (!(error instanceof UnknownName) || !args.createVenue) throw error;
        newVenue = args.venue.trim();
      }
    }
    const organizers = await resolveNames(client, 'organizer', args.organizer);
    if (organizers instanceof Ambiguous) {
      return choiceCard(organizers, 'event create', raw, (a, id) => ({
        ...a,
        organizer: (a.organizer as string[]).map((o) =>
          o.trim().toLowerCase() === organizers.name.toLowerCase() ? String(id) : o,
        ),
      }));
    }
    const categories = await resolveNames(client, 'category', args.category);
    const tags = await resolveNames(client, 'tag', args.tag);
    if (categories instanceof Ambiguous || tags instanceof Ambiguous) {
      throw new UsageError('A category or tag name matches several terms; give its id instead.');
    }

    if (newVenue !== undefined) {
      const created = await client.venues.create({ venue: newVenue });
      venueId = created.id;
    }
    const fields: EventFields & { title: string; start_date: string; end_date: string } = {
      title: args.title,
      start_date: toApiDate(times.start),
      end_date: toApiDate(times.end),
      all_day: times.allDay,
      ...(args.timezone ? { timezone: zone } : {}),
      venue: venueId,
      ...(organizers.length ? { organizer: organizers } : {}),
      ...(categories.length ? { categories } : {}),
      ...(tags.length ? { tags } : {}),
      cost: args.cost,
      ...(args.website ? { website: args.website } : {}),
      ...(args.image ? { image: args.image } : {}),
      description: args.description,
      ...(args.featured ? { featured: true } : {}),
      ...(args.draft ? { status: 'draft' } : {}),
    };
    try {
      const event = await client.events.create(fields);
      return eventCard(event, siteZone, { note: 'Event created.', status: 'success' });
    } catch (error) {
      if (newVenue === undefined || venueId === undefined || !(error instanceof DeckhandError)) throw error;
      return venueCreatedButEventFailed(args, newVenue, venueId, error);
    }
  },
});

/** The card when the new venue exists but the event does not: say so, offer to retry with it. */
function venueCreatedButEventFailed(
  args: CreateArgs,
  venue: string,
  venueId: number,
  error: DeckhandError,
): DraftCard {
  return {
    title: 'The event was not created',
    text: `The venue “${venue}” was created (venue #${venueId}), but the event could not be: ${error.message}\nNothing else was changed. Retry to create the event at that venue.`,
    status: 'danger',
    actions: [
      actionTo(
        eventCreateCommand,
        { ...args, venue: String(venueId), createVenue: false },
        { label: `Retry with ${venue.length > 40 ? `${venue.slice(0, 37)}...` : venue}`, style: 'primary' },
      ),
    ],
    visibility: 'private',
  };
}

/** A few names from a list, for a form's hints. */
function sample(names: string[], max = 6): string {
  const unique = [...new Set(names.filter(Boolean))];
  return unique.length > max ? `${unique.slice(0, max).join(', ')}, …` : unique.join(', ');
}

/** `/event new`: the fields of /event create as a form, with the site's venues, organizers and categories. */
export const eventNewCommand = command({
  name: 'event new',
  permission: 'write',
  sideEffect: false,
  async run({ services, invocation, openForm }) {
    const { client, zone } = await calendarFor(services, invocation.user);
    const [venues, organizers, categories] = await Promise.all([
      client.venues.list({ per_page: 50 }),
      client.organizers.list({ per_page: 50 }),
      client.categories.list({ per_page: 50, hide_empty: false }),
    ]);
    const venueNames = venues.items.map((v) => v.name);
    const organizerNames = organizers.items.map((o) => o.name);
    const categoryNames = categories.items.map((c) => c.name);
    const intro = [
      `Times are in ${zone} (the calendar's time zone); a date without a time makes an all-day event.`,
      venueNames.length ? `Venues: ${sample(venueNames, 20)}.` : undefined,
      organizerNames.length ? `Organizers: ${sample(organizerNames, 20)}.` : undefined,
      categoryNames.length ? `Categories: ${sample(categoryNames, 20)}.` : undefined,
    ]
      .filter(Boolean)
      .join('\n');
    const opened = await openForm({
      ...formTarget(eventCreateCommand, {}),
      title: 'New event',
      intro,
      fields: [
        { name: 'title', label: 'Title', placeholder: 'Hack night' },
        { name: 'start', label: 'Starts', placeholder: '2026-12-01 18:00' },
        {
          name: 'end',
          label: 'Ends (default: an hour later)',
          placeholder: '2026-12-01 21:00',
          optional: true,
        },
        {
          name: 'venue',
          label: 'Venue',
          placeholder: sample(venueNames, 4) || 'a venue name',
          optional: true,
        },
        {
          name: 'organizer',
          label: 'Organizer',
          placeholder: sample(organizerNames, 3) || 'a name',
          optional: true,
        },
        {
          name: 'category',
          label: 'Category',
          placeholder: sample(categoryNames, 4) || 'a category',
          optional: true,
        },
        { name: 'description', label: 'Description', multiline: true, optional: true },
      ],
      submitLabel: 'Create',
    });
    if (!opened) {
      throw new UsageError('Forms are not available here.', {
        hint: 'Use /event create "<title>" --start "YYYY-MM-DD HH:MM" [--end …] [--venue …] instead.',
      });
    }
    return { text: 'Opened a form for the new event.', status: 'info', visibility: 'private' };
  },
});
