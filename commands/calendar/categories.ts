/** `/categories list|create` and `/tags list|create`. */
import { z } from 'zod';
import { UpstreamError, UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import type { CalendarPage, CalendarTerm } from '../../src/services/calendar';
import { nameOrId, pageNumber } from './calendar-args';
import { calendarFor, pageFooter } from './calendar-common';
import { Ambiguous, resolveName } from './calendar-resolve';
import { command } from './context';

const PER_PAGE = 50;

function termList(
  page: CalendarPage<CalendarTerm>,
  kind: 'category' | 'tag',
  listCommand: string,
): DraftCard {
  const title = kind === 'category' ? 'Event categories' : 'Tags';
  if (page.items.length === 0)
    return {
      title,
      text: `There are no ${kind === 'category' ? 'categories' : 'tags'} yet.`,
      status: 'info',
    };
  const actions = [
    ...(page.page > 1 ? [{ label: '◀ Previous', command: listCommand, args: { page: page.page - 1 } }] : []),
    ...(page.nextUrl ? [{ label: 'Next ▶', command: listCommand, args: { page: page.page + 1 } }] : []),
  ];
  return {
    title,
    status: 'info',
    fields: page.items.map((term) => ({
      label: `#${term.id}`,
      value: `${term.name} (${term.slug}) — ${term.count ?? 0} event${term.count === 1 ? '' : 's'}`,
      ...(term.url ? { url: term.url } : {}),
    })),
    ...(actions.length ? { actions } : {}),
    footer: pageFooter(page, kind === 'category' ? 'category' : 'tag'),
  };
}

/** A duplicate name is a usage error here: the term exists already. */
function existing(error: unknown, kind: string, name: string): unknown {
  if (error instanceof UpstreamError && error.status === 400 && /already exists/i.test(error.message)) {
    return new UsageError(`The ${kind} “${name}” exists already.`, {
      hint: `See /${kind === 'tag' ? 'tags' : 'categories'} list.`,
    });
  }
  return error;
}

/** `/categories create "<name>" [--description …] [--parent NAME|ID]`. */
export const categoriesCreateCommand = command({
  name: 'categories create',
  args: z.object({
    name: z.string().trim().min(1, 'must not be empty').max(200).describe('opt-name-categories-create'),
    description: z.string().max(2000).optional().describe('opt-description-categories-create'),
    parent: nameOrId('opt-parent').optional(),
  }),
  positional: ['name'],
  examples: ['/categories create Workshop', '/categories create "Kids workshop" --parent Workshop'],
  permission: 'write',
  async run({ args, services, invocation }) {
    const { client } = await calendarFor(services, invocation.user);
    const parent = args.parent === undefined ? undefined : await resolveName(client, 'category', args.parent);
    if (parent instanceof Ambiguous) throw new UsageError('Give the parent category by id.');
    const term = await client.categories
      .create({
        name: args.name,
        ...(args.description ? { description: args.description } : {}),
        parent,
      })
      .catch((error: unknown) => {
        throw existing(error, 'category', args.name);
      });
    return { text: `Category “${term.name}” added (#${term.id}, slug ${term.slug}).`, status: 'success' };
  },
});

/** `/categories list` or `/tags list`: the terms of one taxonomy, a page at a time. */
function termListCommand(kind: 'category' | 'tag') {
  const collection = kind === 'category' ? 'categories' : 'tags';
  const name = `${collection} list`;
  return command({
    name,
    args: z.object({ page: pageNumber }),
    permission: 'read',
    async run({ args, services }) {
      const terms = services.calendar.anonymous()[collection];
      const page = await terms.list({ page: args.page, per_page: PER_PAGE, hide_empty: false });
      return termList(page, kind, name);
    },
  });
}

/** `/categories list`. */
export const categoriesListCommand = termListCommand('category');

/** `/tags list`. */
export const tagsListCommand = termListCommand('tag');

/** `/tags create "<name>" [--description …]`. */
export const tagsCreateCommand = command({
  name: 'tags create',
  args: z.object({
    name: z.string().trim().min(1, 'must not be empty').max(200).describe('opt-name-tags-create'),
    description: z.string().max(2000).optional().describe('opt-description-tags-create'),
  }),
  positional: ['name'],
  examples: ['/tags create beginner'],
  permission: 'write',
  async run({ args, services, invocation }) {
    const { client } = await calendarFor(services, invocation.user);
    const term = await client.tags
      .create({ name: args.name, ...(args.description ? { description: args.description } : {}) })
      .catch((error: unknown) => {
        throw existing(error, 'tag', args.name);
      });
    return { text: `Tag “${term.name}” added (#${term.id}).`, status: 'success' };
  },
});
