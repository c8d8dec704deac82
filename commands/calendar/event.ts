/** `/event show|update|cancel|edit <id|slug>`. */
import type { DateTime } from 'luxon';
import { z } from 'zod';
import { formTarget } from '../../src/core/action-ref';
import { UsageError } from '../../src/core/errors';
import type { BoundTarget } from '../../src/core/target';
import { type Translator, translator } from '../../src/i18n/translate';
import { type EventFields, fromApiDate, InTrashError, toApiDate } from '../../src/services/calendar';
import {
  checkTimezone,
  dateText,
  eventRef,
  nameOrId,
  nonEmptyText,
  readDate,
  timezoneText,
  webUrl,
} from './calendar-args';
import { calendarFor } from './calendar-common';
import { Ambiguous, choiceCard, resolveName, resolveNames } from './calendar-resolve';
import { command } from './context';
import { eventCard } from './event-card';
import { eventCancelSignature, eventEditSignature } from './signatures';

/** `/event show <id|slug>`. */
export const eventShowCommand = command({
  name: 'event show',
  args: z.object({ ref: eventRef }),
  positional: ['ref'],
  examples: ['/event show 42', '/event show hack-night'],
  permission: 'read',
  async run({ args, services, invocation, say = translator('en') }) {
    const { client, zone } = await calendarFor(services, invocation.user);
    return eventCard(await client.events.get(args.ref), zone, say);
  },
});

const updateArgs = z.object({
  ref: eventRef,
  title: nonEmptyText(200).optional().describe('opt-title-event-update'),
  start: dateText('opt-start-event-update').optional(),
  end: dateText('opt-end-event-update').optional(),
  allDay: z.boolean().optional().describe('opt-all-day-event-update'),
  timezone: timezoneText.optional(),
  venue: nameOrId('opt-venue').optional(),
  organizer: z.array(nameOrId('opt-organizer-one')).default([]).describe('opt-organizer-event-update'),
  category: z.array(nameOrId('opt-category-one')).default([]).describe('opt-category-event-update'),
  tag: z.array(nameOrId('opt-tag-one')).default([]).describe('opt-tag-event-update'),
  cost: z.string().max(100).optional().describe('opt-cost-event-update'),
  website: webUrl.optional().describe('opt-website'),
  description: z.string().max(10_000).optional().describe('opt-description-event-create'),
  featured: z.boolean().optional().describe('opt-featured-event-update'),
  status: z.enum(['publish', 'draft']).optional().describe('opt-status'),
});

/** New start and end from what was typed and what the event has; the duration is kept when only the start moves. */
function newTimes(
  args: z.infer<typeof updateArgs>,
  current: { start: DateTime; end: DateTime; allDay: boolean },
  zone: string,
): { start: DateTime; end: DateTime; allDay: boolean } | undefined {
  if (args.start === undefined && args.end === undefined && args.allDay === undefined && !args.timezone) {
    return undefined;
  }
  const start =
    args.start === undefined
      ? current.start.setZone(zone, { keepLocalTime: true })
      : readDate(args.start, zone, '--start').dateTime;
  const duration = current.end.diff(current.start);
  let end = args.end === undefined ? start.plus(duration) : readDate(args.end, zone, '--end').dateTime;
  const allDay = args.allDay ?? current.allDay;
  if (allDay) end = end.endOf('day').set({ millisecond: 0 });
  const first = allDay ? start.startOf('day') : start;
  if (end <= first) {
    throw UsageError.inWords((say) => ({
      message: say.t('event-update-ends-before-start'),
      hint: say.t('event-update-ends-before-start-hint'),
    }));
  }
  return { start: first, end, allDay };
}

/** `/event update <id|slug> [--title …] [--start …] …`: changes only what is given. */
export const eventUpdateCommand = command({
  name: 'event update',
  args: updateArgs,
  positional: ['ref'],
  examples: [
    '/event update 42 --start "2026-12-01 19:00"',
    '/event update hack-night --venue "Community Room"',
  ],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en'), sayPrivately = say }) {
    const { client, zone: siteZone } = await calendarFor(services, invocation.user);
    const zone = args.timezone ? checkTimezone(args.timezone, '--timezone') : undefined;
    const current = await client.events.get(args.ref);
    const eventZone = zone ?? current.timezone;
    const times = newTimes(
      args,
      {
        start: fromApiDate(current.startDate, current.timezone),
        end: fromApiDate(current.endDate, current.timezone),
        allDay: current.allDay,
      },
      eventZone,
    );
    const raw = args as unknown as Record<string, unknown>;
    let venue: number | undefined;
    if (args.venue !== undefined) {
      const resolved = await resolveName(client, 'venue', args.venue);
      if (resolved instanceof Ambiguous) {
        return choiceCard(
          resolved,
          'event update',
          raw,
          (a, id) => ({ ...a, venue: String(id) }),
          sayPrivately,
        );
      }
      venue = resolved;
    }
    const organizers = await resolveNames(client, 'organizer', args.organizer);
    const categories = await resolveNames(client, 'category', args.category);
    const tags = await resolveNames(client, 'tag', args.tag);
    if (organizers instanceof Ambiguous || categories instanceof Ambiguous || tags instanceof Ambiguous) {
      throw UsageError.inWords((say) => ({ message: say.t('event-update-name-ambiguous') }));
    }
    const fields: EventFields = {
      ...(args.title !== undefined ? { title: args.title } : {}),
      ...(times
        ? {
            start_date: toApiDate(times.start),
            end_date: toApiDate(times.end),
            all_day: times.allDay,
            timezone: eventZone,
          }
        : {}),
      ...(venue !== undefined ? { venue } : {}),
      ...(args.organizer.length ? { organizer: organizers } : {}),
      ...(args.category.length ? { categories } : {}),
      ...(args.tag.length ? { tags } : {}),
      ...(args.cost !== undefined ? { cost: args.cost } : {}),
      ...(args.website !== undefined ? { website: args.website } : {}),
      ...(args.description !== undefined ? { description: args.description } : {}),
      ...(args.featured !== undefined ? { featured: args.featured } : {}),
      ...(args.status !== undefined ? { status: args.status } : {}),
    };
    if (Object.keys(fields).length === 0) {
      const { ref } = args;
      throw UsageError.inWords((say) => ({
        message: say.t('event-update-nothing'),
        hint: say.t('event-update-nothing-hint', ref),
      }));
    }
    // The client writes back every field the plugin would reset (write-back.ts).
    const event = await client.events.update(current.id, fields, current);
    return eventCard(event, siteZone, say, { note: say.t('event-updated'), status: 'success' });
  },
});

/** `/event cancel <id|slug>`: moves the event to the trash, after a confirmation. */
export const eventCancelCommand = command({
  ...eventCancelSignature,
  positional: ['ref'],
  examples: ['/event cancel 42'],
  permission: 'write',
  // The event is looked up before anything is asked: an id or slug that is no event, or one already
  // in the trash, is refused here; the Confirm button then acts on exactly the id it names, and only
  // while the event is unchanged (its modification time is the version).
  async resolve({ args, services, invocation }) {
    const { client } = await calendarFor(services, invocation.user);
    const event = await client.events.get(args.ref).catch((error: unknown) => {
      if (error instanceof InTrashError) {
        const words = (say: Translator) => ({
          message: say.t('event-already-in-trash', args.ref),
          hint: say.t('event-trash-hint'),
        });
        const inTrash = new InTrashError(words(translator('en')).message, { cause: error });
        inTrash.words = words;
        throw inTrash;
      }
      throw error;
    });
    const target: BoundTarget<{ ref: string }> & { title: string } = {
      label: `Event #${event.id} “${event.title}”`,
      args: { ref: String(event.id) },
      ...(event.modified ? { version: event.modified } : {}),
      title: event.title,
    };
    return target;
  },
  confirm: (args, target, say = translator('en')) => {
    const title = (target as { title?: string } | undefined)?.title;
    return title === undefined
      ? say.t('event-cancel-confirm-ref', args.ref)
      : say.t('event-cancel-confirm', args.ref, title);
  },
  async run({ args, services, invocation, say = translator('en') }) {
    const { client, zone } = await calendarFor(services, invocation.user);
    const event = await client.events.delete(args.ref);
    return eventCard(event, zone, say, {
      note: say.t('event-cancelled', event.title),
      status: 'success',
      buttons: false,
    });
  },
});

/** `/event edit <id|slug>`: the Edit button — a form with the fields to change, completing /event update. */
export const eventEditCommand = command({
  ...eventEditSignature,
  positional: ['ref'],
  examples: ['/event edit 42'],
  permission: 'write',
  sideEffect: false,
  async run({ args, services, invocation, openForm, sayPrivately: say = translator('en') }) {
    const { client } = await calendarFor(services, invocation.user);
    const event = await client.events.get(args.ref);
    const start = event.startDate.slice(0, 16);
    const end = event.endDate.slice(0, 16);
    const opened = await openForm({
      ...formTarget(eventUpdateCommand, { ref: String(event.id) }),
      title: say.t('event-form-edit-title', event.id).slice(0, 45),
      intro: say.t('event-form-edit-intro', event.title, event.timezone),
      fields: [
        {
          name: 'title',
          label: say.t('event-form-title'),
          placeholder: event.title.slice(0, 100),
          optional: true,
        },
        { name: 'start', label: say.t('event-form-starts'), placeholder: start, optional: true },
        { name: 'end', label: say.t('event-form-ends'), placeholder: end, optional: true },
        {
          name: 'venue',
          label: say.t('event-form-venue'),
          placeholder: event.venues[0]?.name || say.t('event-form-venue-placeholder'),
          optional: true,
        },
        { name: 'description', label: say.t('event-form-description'), multiline: true, optional: true },
      ],
      submitLabel: say.t('event-form-save'),
    });
    if (!opened) {
      const id = event.id;
      throw UsageError.inWords((say) => ({
        message: say.t('event-form-unavailable'),
        hint: say.t('event-form-unavailable-update', id),
      }));
    }
    return { text: say.t('event-form-opened-edit', event.title), status: 'info', visibility: 'private' };
  },
});
