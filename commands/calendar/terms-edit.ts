/**
 * `/categories update|delete` and `/tags update|delete`. What the site would refuse is refused here
 * first, in Deckhand's words: an empty description or slug (tribe-common `Validator/Base.php`
 * `is_string` takes only non-empty strings), a slug another term has (`wp_update_term()` answers
 * `duplicate_term_slug`), a category as its own parent. A delete is for good — terms have no trash
 * (`Term_Single_Base.php` `delete()` forces it) — and takes the term off every event, so the
 * question names those events first.
 */
import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { type BoundTarget, fingerprint } from '../../src/core/target';
import type { CalendarClient, CalendarTerm } from '../../src/services/calendar';
import { nameOrId } from './calendar-args';
import { calendarFor } from './calendar-common';
import { eventsUsing, resolveOne, usageText } from './calendar-usage';
import { command } from './context';
import { itemDeleteCommand } from './delete-command';

type TermKind = 'category' | 'tag';

/** A delete's bound target, with the events that use the term (named in the question). */
interface TermTarget<A> extends BoundTarget<A> {
  usage: string;
  /** True when some event has the term. */
  used: boolean;
}

const apiOf = (client: CalendarClient, kind: TermKind) =>
  kind === 'category' ? client.categories : client.tags;
const plural = (kind: TermKind) => (kind === 'category' ? 'categories' : 'tags');
const title = (kind: TermKind) => (kind === 'category' ? 'Category' : 'Tag');

const newName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200)
  .optional()
  .describe('opt-name-venues-update');
const newDescription = z
  .string()
  .trim()
  .min(1, 'must not be empty (the calendar keeps a description once set; give a new one)')
  .max(2000)
  .optional()
  .describe('opt-description-categories-update');
const newSlug = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lower-case letters, digits and dashes, e.g. kids-workshop')
  .max(200)
  .optional()
  .describe('opt-slug');

/** Changes a term: checks the new slug and parent first, then sends only what was given. */
async function updateTerm(
  client: CalendarClient,
  kind: TermKind,
  ref: string,
  fields: {
    name?: string | undefined;
    description?: string | undefined;
    slug?: string | undefined;
    parent?: string | undefined;
  },
) {
  if (Object.values(fields).every((value) => value === undefined)) {
    throw new UsageError('Nothing to change.', {
      hint: `Give at least one of --name, --description, --slug${kind === 'category' ? ', --parent' : ''}.`,
    });
  }
  const api = apiOf(client, kind);
  const id = await resolveOne(client, kind, ref);
  const current = await api.get(id);
  if (fields.slug !== undefined && fields.slug !== current.slug) {
    const taken = await api.list({ slug: fields.slug, hide_empty: false, per_page: 50 });
    const other = taken.items.find((term) => term.slug === fields.slug && term.id !== id);
    if (other) {
      throw new UsageError(
        `The ${kind} “${other.name}” (#${other.id}) already has the slug ${fields.slug}.`,
        {
          hint: 'Choose another slug. Nothing was changed.',
        },
      );
    }
  }
  let parent: number | undefined;
  if (fields.parent !== undefined) {
    parent = await resolveOne(client, 'category', fields.parent);
    if (parent === id) {
      throw new UsageError(`The category “${current.name}” cannot be its own parent.`, {
        hint: 'Give another category. Nothing was changed.',
      });
    }
  }
  const term = await api.update(id, {
    name: fields.name,
    description: fields.description,
    slug: fields.slug,
    parent,
  });
  return {
    text: `${title(kind)} #${term.id} “${term.name}” updated (slug ${term.slug}).`,
    status: 'success' as const,
  };
}

/** `/categories update <category> [--name …] [--description …] [--slug …] [--parent NAME|ID]`. */
export const categoriesUpdateCommand = command({
  name: 'categories update',
  args: z.object({
    category: nameOrId('opt-category-one'),
    name: newName,
    description: newDescription,
    slug: newSlug,
    parent: nameOrId('opt-parent').optional(),
  }),
  positional: ['category'],
  examples: [
    '/categories update Meetup --name Meetups',
    '/categories update "Kids workshop" --parent Workshop',
  ],
  permission: 'write',
  async run({ args, services, invocation }) {
    const { client } = await calendarFor(services, invocation.user);
    const { category, ...fields } = args;
    return updateTerm(client, 'category', category, fields);
  },
});

/** `/tags update <tag> [--name …] [--description …] [--slug …]`. */
export const tagsUpdateCommand = command({
  name: 'tags update',
  args: z.object({ tag: nameOrId('opt-tag-one'), name: newName, description: newDescription, slug: newSlug }),
  positional: ['tag'],
  examples: ['/tags update beginner --name "beginner friendly"'],
  permission: 'write',
  async run({ args, services, invocation }) {
    const { client } = await calendarFor(services, invocation.user);
    const { tag, ...fields } = args;
    return updateTerm(client, 'tag', tag, fields);
  },
});

/** Binds a term to delete: it exists, and which events have it. */
async function bindTerm<A extends Record<string, unknown>>(
  kind: TermKind,
  ref: string,
  args: A,
  ctx: Parameters<typeof calendarFor>,
): Promise<TermTarget<A>> {
  const { client, zone } = await calendarFor(...ctx);
  const id = await resolveOne(client, kind, ref);
  const term: CalendarTerm = await apiOf(client, kind).get(id);
  const usage = await eventsUsing(client, kind, term.id);
  return {
    label: `${title(kind)} #${term.id} “${term.name}”`,
    args: { ...args, [kind]: String(term.id) },
    version: fingerprint({ term, events: usage.events.map((e) => [e.id, e.modified]), total: usage.total }),
    usage: usageText(usage, zone),
    used: usage.total > 0,
  };
}

function deleteQuestion(kind: TermKind, target: BoundTarget<unknown> | undefined): string {
  const bound = target as TermTarget<unknown> | undefined;
  const what = bound?.label.replace(/^\w+/, (w) => w.toLowerCase()) ?? `this ${kind}`;
  return [
    `Delete ${what} for good? ${plural(kind) === 'tags' ? 'Tags' : 'Categories'} have no trash: it cannot be restored.`,
    bound?.usage ?? '',
    bound?.used === false ? '' : 'Those events stay; they only lose it.',
  ]
    .filter(Boolean)
    .join('\n');
}

/** What the deletes of a category and a tag share: how they are bound, asked and deleted. */
function termDelete(kind: TermKind) {
  return {
    kind,
    name: `${kind === 'category' ? 'categories' : 'tags'} delete`,
    bind: (ref: string, args: Record<string, string>, ctx: Parameters<typeof calendarFor>) =>
      bindTerm(kind, ref, args, ctx),
    question: (target: BoundTarget<unknown> | undefined) => deleteQuestion(kind, target),
    async remove(client: CalendarClient, id: number): Promise<DraftCard> {
      const term = await apiOf(client, kind).delete(id);
      return { text: `${title(kind)} “${term.name}” (#${term.id}) is deleted.`, status: 'success' };
    },
  };
}

/** `/categories delete <category>`. */
export const categoriesDeleteCommand = itemDeleteCommand({
  ...termDelete('category'),
  examples: ['/categories delete Meetup'],
});

/** `/tags delete <tag>`. */
export const tagsDeleteCommand = itemDeleteCommand({
  ...termDelete('tag'),
  examples: ['/tags delete beginner'],
});
