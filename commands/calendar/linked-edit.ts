/**
 * `/venues update|delete` and `/organizers update|delete`. An update changes only the options given
 * (the client writes back what the plugin would otherwise reset, write-back.ts). A delete moves the
 * venue or organizer to the calendar's trash (`DELETE /venues/{id}`: `wp_trash_post`,
 * `Single_Venue.php` / `Single_Organizer.php` `delete()`), after a question that names the events
 * using it; those events keep it linked (their `_EventVenueID` / `_EventOrganizerID` meta stays,
 * `tec_get_venue_ids()`), so the reply says how to give them another.
 */
import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import type { BoundTarget } from '../../src/core/target';
import { fingerprint } from '../../src/core/target';
import { type Translator, translator } from '../../src/i18n/translate';
import type { CalendarClient, CalendarOrganizer, CalendarVenue } from '../../src/services/calendar';
import { InTrashError } from '../../src/services/calendar';
import { nameOrId, newName, organizerDetails, venueDetails } from './calendar-args';
import { calendarFor } from './calendar-common';
import { Ambiguous, choiceCard, resolveName } from './calendar-resolve';
import { eventsUsing, resolveOne, type Usage, usageText } from './calendar-usage';
import { command } from './context';
import { itemDeleteCommand } from './delete-command';
import { organizerField, venueField } from './venues';

/** A delete's bound target, with the events that use it (named in the question). */
interface LinkedTarget<A> extends BoundTarget<A> {
  id: number;
  name: string;
  usage: Usage;
  /** The time zone the events' times are said in. */
  zone: string;
}

/** Refuses an update that changes nothing, naming its options (`name` → `--name`). */
function needsAChange(fields: Record<string, unknown>, options: readonly string[]): void {
  if (Object.values(fields).every((value) => value === undefined)) {
    const flags = options.map((option) => `--${option}`).join(', ');
    throw UsageError.inWords((say) => ({
      message: say.t('calendar-nothing-to-change'),
      hint: say.t('calendar-give-one-of', flags),
    }));
  }
}

const venueUpdateArgs = z.object({ venue: nameOrId('opt-venue'), name: newName, ...venueDetails });

/** `/venues update <venue> [--name …] [--address …] …`. */
export const venuesUpdateCommand = command({
  name: 'venues update',
  args: venueUpdateArgs,
  positional: ['venue'],
  examples: ['/venues update "Main Hall" --phone "+49 30 1234"', '/venues update 10 --name "Great Hall"'],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en'), sayPrivately = say }) {
    const { venue: ref, name, ...rest } = args;
    needsAChange({ name, ...rest }, [
      'name',
      'address',
      'city',
      'zip',
      'country',
      'phone',
      'website',
      'description',
    ]);
    const { client } = await calendarFor(services, invocation.user);
    const id = await resolveName(client, 'venue', ref);
    if (id instanceof Ambiguous) {
      return choiceCard(
        id,
        'venues update',
        args,
        (a, chosen) => ({ ...a, venue: String(chosen) }),
        sayPrivately,
      );
    }
    const venue = await client.venues.update(id, { ...(name ? { venue: name } : {}), ...rest });
    return {
      text: say.t('venue-updated', venue.id, venue.name),
      status: 'success',
      fields: [venueField(venue, say)],
    };
  },
});

const organizerUpdateArgs = z.object({
  organizer: nameOrId('opt-organizer-one'),
  name: newName,
  ...organizerDetails,
});

/** `/organizers update <organizer> [--name …] [--email …] …`. */
export const organizersUpdateCommand = command({
  name: 'organizers update',
  args: organizerUpdateArgs,
  positional: ['organizer'],
  examples: ['/organizers update "Meetup Team" --email hello@example.org'],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en'), sayPrivately = say }) {
    const { organizer: ref, name, ...rest } = args;
    needsAChange({ name, ...rest }, ['name', 'email', 'phone', 'website', 'description']);
    const { client } = await calendarFor(services, invocation.user);
    const id = await resolveName(client, 'organizer', ref);
    if (id instanceof Ambiguous) {
      return choiceCard(
        id,
        'organizers update',
        args,
        (a, chosen) => ({ ...a, organizer: String(chosen) }),
        sayPrivately,
      );
    }
    const organizer = await client.organizers.update(id, { ...(name ? { organizer: name } : {}), ...rest });
    return {
      text: say.t('organizer-updated', organizer.id, organizer.name),
      status: 'success',
      fields: [organizerField(organizer, say)],
    };
  },
});

/** Binds a venue or organizer to delete: exists, not in the trash, and who uses it. */
async function bindLinked<A extends Record<string, unknown>>(
  kind: 'venue' | 'organizer',
  ref: string,
  args: A,
  ctx: Parameters<typeof calendarFor>,
): Promise<LinkedTarget<A>> {
  const { client, zone } = await calendarFor(...ctx);
  const id = await resolveOne(client, kind, ref);
  const item: CalendarVenue | CalendarOrganizer =
    kind === 'venue' ? await client.venues.get(id) : await client.organizers.get(id);
  const label = `${kind === 'venue' ? 'Venue' : 'Organizer'} #${item.id} “${item.name}”`;
  if (item.status === 'trash') {
    const words = (say: Translator) => ({
      message:
        kind === 'venue'
          ? say.t('venue-already-in-trash', item.id, item.name)
          : say.t('organizer-already-in-trash', item.id, item.name),
      hint: say.t('event-trash-hint'),
    });
    const inTrash = new InTrashError(words(translator('en')).message);
    inTrash.words = words;
    throw inTrash;
  }
  const usage = await eventsUsing(client, kind, item.id);
  return {
    label,
    args: { ...args, [kind]: String(item.id) },
    version: fingerprint({ item, events: usage.events.map((e) => [e.id, e.modified]), total: usage.total }),
    id: item.id,
    name: item.name,
    usage,
    zone,
  };
}

/** The question of a venue or organizer delete. */
function deleteQuestion(
  kind: 'venue' | 'organizer',
  target: BoundTarget<unknown> | undefined,
  say: Translator,
): string {
  const bound =
    (target as Partial<LinkedTarget<unknown>> | undefined)?.id === undefined
      ? undefined
      : (target as LinkedTarget<unknown>);
  const question =
    kind === 'venue'
      ? bound
        ? say.t('venue-delete-confirm', bound.id, bound.name)
        : say.t('venue-delete-confirm-this')
      : bound
        ? say.t('organizer-delete-confirm', bound.id, bound.name)
        : say.t('organizer-delete-confirm-this');
  return [
    question,
    bound?.usage ? usageText(bound.usage, bound.zone, say) : '',
    kind === 'venue' ? say.t('venue-delete-keep') : say.t('organizer-delete-keep'),
  ]
    .filter(Boolean)
    .join('\n');
}

/** What the deletes of a venue and an organizer share: how they are bound, asked and deleted. */
function linkedDelete(kind: 'venue' | 'organizer') {
  return {
    kind,
    name: `${kind}s delete`,
    bind: (ref: string, args: Record<string, string>, ctx: Parameters<typeof calendarFor>) =>
      bindLinked(kind, ref, args, ctx),
    question: (target: BoundTarget<unknown> | undefined, say: Translator) =>
      deleteQuestion(kind, target, say),
    async remove(client: CalendarClient, id: number, say: Translator): Promise<DraftCard> {
      const deleted = kind === 'venue' ? await client.venues.delete(id) : await client.organizers.delete(id);
      return {
        text:
          kind === 'venue'
            ? say.t('venue-deleted', deleted.id, deleted.name)
            : say.t('organizer-deleted', deleted.id, deleted.name),
        status: 'success',
      };
    },
  };
}

/** `/venues delete <venue>`. */
export const venuesDeleteCommand = itemDeleteCommand({
  ...linkedDelete('venue'),
  examples: ['/venues delete "Main Hall"', '/venues delete 10'],
});

/** `/organizers delete <organizer>`. */
export const organizersDeleteCommand = itemDeleteCommand({
  ...linkedDelete('organizer'),
  examples: ['/organizers delete "Meetup Team"', '/organizers delete 20'],
});
