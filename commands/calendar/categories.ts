/** `/categories list|create` and `/tags list|create`. */
import { z } from 'zod';
import { UpstreamError, UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import type { CalendarPage, CalendarTerm } from '../../src/services/calendar';
import { nameOrId, nonEmptyText, pageNumber } from './calendar-args';
import { calendarFor, pageFooter } from './calendar-common';
import { Ambiguous, resolveName } from './calendar-resolve';
import { command } from './context';

const PER_PAGE = 50;

function termList(
  page: CalendarPage<CalendarTerm>,
  kind: 'category' | 'tag',
  listCommand: string,
  say: Translator,
): DraftCard {
  const title = kind === 'category' ? say.t('category-list-title') : say.t('calendar-tag-list-title');
  if (page.items.length === 0)
    return {
      title,
      text: kind === 'category' ? say.t('category-list-none') : say.t('calendar-tag-list-none'),
      status: 'info',
    };
  const actions = [
    ...(page.page > 1
      ? [{ label: say.t('calendar-page-previous'), command: listCommand, args: { page: page.page - 1 } }]
      : []),
    ...(page.nextUrl
      ? [{ label: say.t('calendar-page-next'), command: listCommand, args: { page: page.page + 1 } }]
      : []),
  ];
  return {
    title,
    status: 'info',
    fields: page.items.map((term) => ({
      label: `#${term.id}`,
      value: say.t('category-term-line', term.name, term.slug, term.count ?? 0),
      ...(term.url ? { url: term.url } : {}),
    })),
    ...(actions.length ? { actions } : {}),
    footer: pageFooter(page, kind === 'category' ? 'category' : 'tag', say),
  };
}

/** A duplicate name is a usage error here: the term exists already. */
function existing(error: unknown, kind: 'category' | 'tag', name: string): unknown {
  if (error instanceof UpstreamError && error.status === 400 && /already exists/i.test(error.message)) {
    return UsageError.inWords((say) =>
      kind === 'tag'
        ? { message: say.t('calendar-tag-exists', name), hint: say.t('calendar-tag-exists-hint') }
        : { message: say.t('category-exists', name), hint: say.t('category-exists-hint') },
    );
  }
  return error;
}

/** `/categories create "<name>" [--description …] [--parent NAME|ID]`. */
export const categoriesCreateCommand = command({
  name: 'categories create',
  args: z.object({
    name: nonEmptyText(200).describe('opt-name-categories-create'),
    description: z.string().max(2000).optional().describe('opt-description-categories-create'),
    parent: nameOrId('opt-parent').optional(),
  }),
  positional: ['name'],
  examples: ['/categories create Workshop', '/categories create "Kids workshop" --parent Workshop'],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en') }) {
    const { client } = await calendarFor(services, invocation.user);
    const parent = args.parent === undefined ? undefined : await resolveName(client, 'category', args.parent);
    if (parent instanceof Ambiguous)
      throw UsageError.inWords((say) => ({ message: say.t('category-parent-by-id') }));
    const term = await client.categories
      .create({
        name: args.name,
        ...(args.description ? { description: args.description } : {}),
        parent,
      })
      .catch((error: unknown) => {
        throw existing(error, 'category', args.name);
      });
    return { text: say.t('category-added', term.name, term.id, term.slug), status: 'success' };
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
    async run({ args, services, say = translator('en') }) {
      const terms = services.calendar.anonymous()[collection];
      const page = await terms.list({ page: args.page, per_page: PER_PAGE, hide_empty: false });
      return termList(page, kind, name, say);
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
    name: nonEmptyText(200).describe('opt-name-tags-create'),
    description: z.string().max(2000).optional().describe('opt-description-tags-create'),
  }),
  positional: ['name'],
  examples: ['/tags create beginner'],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en') }) {
    const { client } = await calendarFor(services, invocation.user);
    const term = await client.tags
      .create({ name: args.name, ...(args.description ? { description: args.description } : {}) })
      .catch((error: unknown) => {
        throw existing(error, 'tag', args.name);
      });
    return { text: say.t('calendar-tag-added', term.name, term.id), status: 'success' };
  },
});
