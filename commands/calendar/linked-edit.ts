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
import type { CalendarClient, CalendarOrganizer, CalendarVenue } from '../../src/services/calendar';
import { InTrashError } from '../../src/services/calendar';
import { nameOrId, newName, organizerDetails, venueDetails } from './calendar-args';
import { calendarFor } from './calendar-common';
import { Ambiguous, choiceCard, resolveName } from './calendar-resolve';
import { eventsUsing, resolveOne, usageText } from './calendar-usage';
import { command } from './context';
import { itemDeleteCommand } from './delete-command';
import { organizerField, venueField } from './venues';

/** A delete's bound target, with the events that use it (named in the question). */
interface LinkedTarget<A> extends BoundTarget<A> {
  usage: string;
}

/** Refuses an update that changes nothing, naming the options. */
function needsAChange(fields: Record<string, unknown>, flags: string): void {
  if (Object.values(fields).every((value) => value === undefined)) {
    throw new UsageError('Nothing to change.', { hint: `Give at least one of ${flags}.` });
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
  async run({ args, services, invocation }) {
    const { venue: ref, name, ...rest } = args;
    needsAChange(
      { name, ...rest },
      '--name, --address, --city, --zip, --country, --phone, --website, --description',
    );
    const { client } = await calendarFor(services, invocation.user);
    const id = await resolveName(client, 'venue', ref);
    if (id instanceof Ambiguous) {
      return choiceCard(id, 'venues update', args, (a, chosen) => ({ ...a, venue: String(chosen) }));
    }
    const venue = await client.venues.update(id, { ...(name ? { venue: name } : {}), ...rest });
    return {
      text: `Venue #${venue.id} “${venue.name}” updated.`,
      status: 'success',
      fields: [venueField(venue)],
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
  async run({ args, services, invocation }) {
    const { organizer: ref, name, ...rest } = args;
    needsAChange({ name, ...rest }, '--name, --email, --phone, --website, --description');
    const { client } = await calendarFor(services, invocation.user);
    const id = await resolveName(client, 'organizer', ref);
    if (id instanceof Ambiguous) {
      return choiceCard(id, 'organizers update', args, (a, chosen) => ({ ...a, organizer: String(chosen) }));
    }
    const organizer = await client.organizers.update(id, { ...(name ? { organizer: name } : {}), ...rest });
    return {
      text: `Organizer #${organizer.id} “${organizer.name}” updated.`,
      status: 'success',
      fields: [organizerField(organizer)],
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
  if (item.status === 'trash') throw new InTrashError(`${label} is already in the trash.`);
  const usage = await eventsUsing(client, kind, item.id);
  return {
    label,
    args: { ...args, [kind]: String(item.id) },
    version: fingerprint({ item, events: usage.events.map((e) => [e.id, e.modified]), total: usage.total }),
    usage: usageText(usage, zone),
  };
}

/** The question of a venue or organizer delete. */
function deleteQuestion(kind: 'venue' | 'organizer', target: BoundTarget<unknown> | undefined): string {
  const bound = target as LinkedTarget<unknown> | undefined;
  const what = bound?.label.replace(/^\w+/, (w) => w.toLowerCase()) ?? `this ${kind}`;
  return [
    `Move ${what} to the calendar's trash?`,
    bound?.usage ?? '',
    `Those events keep it as their ${kind} until they are given another (/event update <id> --${kind} …); an editor can restore it from the trash in WordPress.`,
  ]
    .filter(Boolean)
    .join('\n');
}

/** What the deletes of a venue and an organizer share: how they are bound, asked and deleted. */
function linkedDelete(kind: 'venue' | 'organizer') {
  const label = kind === 'venue' ? 'Venue' : 'Organizer';
  return {
    kind,
    name: `${kind}s delete`,
    bind: (ref: string, args: Record<string, string>, ctx: Parameters<typeof calendarFor>) =>
      bindLinked(kind, ref, args, ctx),
    question: (target: BoundTarget<unknown> | undefined) => deleteQuestion(kind, target),
    async remove(client: CalendarClient, id: number): Promise<DraftCard> {
      const deleted = kind === 'venue' ? await client.venues.delete(id) : await client.organizers.delete(id);
      return {
        text: `${label} #${deleted.id} “${deleted.name}” is in the calendar's trash.`,
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
