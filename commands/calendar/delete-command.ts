/** The deletes of calendar items that events use (venues, organizers, categories, tags). */
import { z } from 'zod';
import type { CommandDefinition } from '../../src/core/command';
import type { DraftCard } from '../../src/core/reply';
import type { BoundTarget } from '../../src/core/target';
import { type Translator, translator } from '../../src/i18n/translate';
import type { CalendarClient } from '../../src/services/calendar';
import { nameOrId } from './calendar-args';
import { calendarFor } from './calendar-common';
import { type CalendarServices, command } from './context';

/** The arguments of an item delete: the item, by name or id, under its kind's name. */
type DeleteArgs = Record<string, string>;

/** What differs between the deletes of items of one kind. */
export interface ItemDelete {
  /** The item's kind, also its argument's name: `venue`, `tag`. */
  kind: string;
  /** The command's name: `venues delete`. */
  name: string;
  examples: readonly string[];
  /** Binds the item (exists, what uses it) for the question; `ref` is its name or id. */
  bind(ref: string, args: DeleteArgs, ctx: Parameters<typeof calendarFor>): Promise<BoundTarget<DeleteArgs>>;
  /** The question asked before the delete, in `say`'s words. */
  question(target: BoundTarget<unknown> | undefined, say: Translator): string;
  /** Deletes the item bound by id; the reply, in `say`'s words. */
  remove(client: CalendarClient, id: number, say: Translator): Promise<DraftCard>;
}

/** The catalog messages describing the item argument, by kind. */
const ITEM_DESCRIPTIONS: Readonly<Record<string, string>> = {
  venue: 'opt-venue',
  organizer: 'opt-organizer-one',
  category: 'opt-category-one',
  tag: 'opt-tag-one',
};

/** `/<kind>s delete <kind>`: binds the item, asks naming the events that use it, then deletes it. */
export function itemDeleteCommand(item: ItemDelete): CommandDefinition<z.ZodObject, CalendarServices> {
  const { kind, name, examples } = item;
  return command({
    name,
    examples,
    args: z.object({ [kind]: nameOrId(ITEM_DESCRIPTIONS[kind] ?? kind) }),
    positional: [kind],
    permission: 'write',
    resolve: ({ args, services, invocation }) =>
      item.bind(String(args[kind]), args as DeleteArgs, [services, invocation.user]),
    confirm: (_args, target, say = translator('en')) => item.question(target, say),
    async run({ args, services, invocation, say = translator('en') }) {
      const { client } = await calendarFor(services, invocation.user);
      return item.remove(client, Number(args[kind]), say);
    },
  });
}
