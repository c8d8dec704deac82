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
import { type Translator, translator } from '../../src/i18n/translate';
import { type EventFields, toApiDate } from '../../src/services/calendar';
import {
  checkTimezone,
  dateText,
  eventTimes,
  nameOrId,
  nonEmptyText,
  timezoneText,
  webUrl,
} from './calendar-args';
import { calendarFor } from './calendar-common';
import { Ambiguous, choiceCard, resolveName, resolveNames, UnknownName } from './calendar-resolve';
import { command } from './context';
import { eventCard } from './event-card';

const createArgs = z.object({
  title: nonEmptyText(200).describe('opt-title'),
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
  async run({ args, services, invocation, say = translator('en'), sayPrivately = say }) {
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
          return choiceCard(
            resolved,
            'event create',
            raw,
            (a, id) => ({ ...a, venue: String(id) }),
            sayPrivately,
          );
        }
        venueId = resolved;
      } catch (error) {
        if (!(error instanceof UnknownName) || !args.createVenue) throw error;
        newVenue = args.venue.trim();
      }
    }
    const organizers = await resolveNames(client, 'organizer', args.organizer);
    if (organizers instanceof Ambiguous) {
      return choiceCard(
        organizers,
        'event create',
        raw,
        (a, id) => ({
          ...a,
          organizer: (a.organizer as string[]).map((o) =>
            o.trim().toLowerCase() === organizers.name.toLowerCase() ? String(id) : o,
          ),
        }),
        sayPrivately,
      );
    }
    const categories = await resolveNames(client, 'category', args.category);
    const tags = await resolveNames(client, 'tag', args.tag);
    if (categories instanceof Ambiguous || tags instanceof Ambiguous) {
      throw UsageError.inWords((say) => ({ message: say.t('events-term-ambiguous') }));
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
      return eventCard(event, siteZone, say, { note: say.t('event-created'), status: 'success' });
    } catch (error) {
      if (newVenue === undefined || venueId === undefined || !(error instanceof DeckhandError)) throw error;
      return venueCreatedButEventFailed(args, newVenue, venueId, error, sayPrivately);
    }
  },
});

/** The card when the new venue exists but the event does not: say so, offer to retry with it. */
function venueCreatedButEventFailed(
  args: CreateArgs,
  venue: string,
  venueId: number,
  error: DeckhandError,
  say: Translator,
): DraftCard {
  const why = error.words?.(say).message ?? error.message;
  return {
    title: say.t('event-create-failed-title'),
    text: say.t('event-create-failed-text', venue, venueId, why),
    status: 'danger',
    actions: [
      actionTo(
        eventCreateCommand,
        { ...args, venue: String(venueId), createVenue: false },
        {
          label: say.t('event-create-retry', venue.length > 40 ? `${venue.slice(0, 37)}...` : venue),
          style: 'primary',
        },
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
  async run({ services, invocation, openForm, sayPrivately: say = translator('en') }) {
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
      say.t('event-form-times', zone),
      venueNames.length ? say.t('event-form-venues', sample(venueNames, 20)) : undefined,
      organizerNames.length ? say.t('event-form-organizers', sample(organizerNames, 20)) : undefined,
      categoryNames.length ? say.t('event-form-categories', sample(categoryNames, 20)) : undefined,
    ]
      .filter(Boolean)
      .join('\n');
    const opened = await openForm({
      ...formTarget(eventCreateCommand, {}),
      title: say.t('event-form-new-title'),
      intro,
      fields: [
        { name: 'title', label: say.t('event-form-title'), placeholder: say.t('event-form-title-example') },
        { name: 'start', label: say.t('event-form-starts'), placeholder: '2026-12-01 18:00' },
        {
          name: 'end',
          label: say.t('event-form-ends-default'),
          placeholder: '2026-12-01 21:00',
          optional: true,
        },
        {
          name: 'venue',
          label: say.t('event-form-venue'),
          placeholder: sample(venueNames, 4) || say.t('event-form-venue-placeholder'),
          optional: true,
        },
        {
          name: 'organizer',
          label: say.t('event-form-organizer'),
          placeholder: sample(organizerNames, 3) || say.t('event-form-organizer-placeholder'),
          optional: true,
        },
        {
          name: 'category',
          label: say.t('event-form-category'),
          placeholder: sample(categoryNames, 4) || say.t('event-form-category-placeholder'),
          optional: true,
        },
        { name: 'description', label: say.t('event-form-description'), multiline: true, optional: true },
      ],
      submitLabel: say.t('event-form-create'),
    });
    if (!opened) {
      throw UsageError.inWords((say) => ({
        message: say.t('event-form-unavailable'),
        hint: say.t('event-form-unavailable-create'),
      }));
    }
    return { text: say.t('event-form-opened-new'), status: 'info', visibility: 'private' };
  },
});
