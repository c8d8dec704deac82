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
import { type Translator, t, translator } from '../../src/i18n/translate';
import type { CalendarClient, CalendarTerm } from '../../src/services/calendar';
import { nameOrId, nonEmptyText } from './calendar-args';
import { calendarFor } from './calendar-common';
import { eventsUsing, resolveOne, type Usage, usageText } from './calendar-usage';
import { command } from './context';
import { itemDeleteCommand } from './delete-command';

type TermKind = 'category' | 'tag';

/** A delete's bound target, with the events that use the term (named in the question). */
interface TermTarget<A> extends BoundTarget<A> {
  id: number;
  name: string;
  usage: Usage;
  /** The time zone the events' times are said in. */
  zone: string;
  /** True when some event has the term. */
  used: boolean;
}

const apiOf = (client: CalendarClient, kind: TermKind) =>
  kind === 'category' ? client.categories : client.tags;
const title = (kind: TermKind) => (kind === 'category' ? 'Category' : 'Tag');

const newName = nonEmptyText(200).optional().describe('opt-name-venues-update');
const newDescription = z
  .string()
  .trim()
  .min(1, t('en', 'terms-description-not-empty'))
  .max(2000)
  .meta({ invalid: 'terms-description-not-empty' })
  .optional()
  .describe('opt-description-categories-update');
const newSlug = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, t('en', 'terms-slug-invalid'))
  .max(200)
  .meta({ invalid: 'terms-slug-invalid' })
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
  say: Translator,
) {
  if (Object.values(fields).every((value) => value === undefined)) {
    const options =
      kind === 'category' ? ['name', 'description', 'slug', 'parent'] : ['name', 'description', 'slug'];
    const flags = options.map((option) => `--${option}`).join(', ');
    throw UsageError.inWords((say) => ({
      message: say.t('calendar-nothing-to-change'),
      hint: say.t('calendar-give-one-of', flags),
    }));
  }
  const api = apiOf(client, kind);
  const id = await resolveOne(client, kind, ref);
  const current = await api.get(id);
  if (fields.slug !== undefined && fields.slug !== current.slug) {
    const taken = await api.list({ slug: fields.slug, hide_empty: false, per_page: 50 });
    const other = taken.items.find((term) => term.slug === fields.slug && term.id !== id);
    const slug = fields.slug;
    if (other) {
      throw UsageError.inWords((say) => ({
        message:
          kind === 'category'
            ? say.t('category-slug-taken', other.name, other.id, slug)
            : say.t('calendar-tag-slug-taken', other.name, other.id, slug),
        hint: say.t('terms-slug-taken-hint'),
      }));
    }
  }
  let parent: number | undefined;
  if (fields.parent !== undefined) {
    parent = await resolveOne(client, 'category', fields.parent);
    if (parent === id) {
      throw UsageError.inWords((say) => ({
        message: say.t('category-own-parent', current.name),
        hint: say.t('category-own-parent-hint'),
      }));
    }
  }
  const term = await api.update(id, {
    name: fields.name,
    description: fields.description,
    slug: fields.slug,
    parent,
  });
  return {
    text:
      kind === 'category'
        ? say.t('category-updated', term.id, term.name, term.slug)
        : say.t('calendar-tag-updated', term.id, term.name, term.slug),
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
  async run({ args, services, invocation, say = translator('en') }) {
    const { client } = await calendarFor(services, invocation.user);
    const { category, ...fields } = args;
    return updateTerm(client, 'category', category, fields, say);
  },
});

/** `/tags update <tag> [--name …] [--description …] [--slug …]`. */
export const tagsUpdateCommand = command({
  name: 'tags update',
  args: z.object({ tag: nameOrId('opt-tag-one'), name: newName, description: newDescription, slug: newSlug }),
  positional: ['tag'],
  examples: ['/tags update beginner --name "beginner friendly"'],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en') }) {
    const { client } = await calendarFor(services, invocation.user);
    const { tag, ...fields } = args;
    return updateTerm(client, 'tag', tag, fields, say);
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
    id: term.id,
    name: term.name,
    usage,
    zone,
    used: usage.total > 0,
  };
}

function deleteQuestion(kind: TermKind, target: BoundTarget<unknown> | undefined, say: Translator): string {
  const bound =
    (target as Partial<TermTarget<unknown>> | undefined)?.id === undefined
      ? undefined
      : (target as TermTarget<unknown>);
  const question =
    kind === 'category'
      ? bound
        ? say.t('category-delete-confirm', bound.id, bound.name)
        : say.t('category-delete-confirm-this')
      : bound
        ? say.t('calendar-tag-delete-confirm', bound.id, bound.name)
        : say.t('calendar-tag-delete-confirm-this');
  return [
    question,
    bound?.usage ? usageText(bound.usage, bound.zone, say) : '',
    bound?.used === false ? '' : say.t('terms-delete-events-stay'),
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
    question: (target: BoundTarget<unknown> | undefined, say: Translator) =>
      deleteQuestion(kind, target, say),
    async remove(client: CalendarClient, id: number, say: Translator): Promise<DraftCard> {
      const term = await apiOf(client, kind).delete(id);
      return {
        text:
          kind === 'category'
            ? say.t('category-deleted', term.name, term.id)
            : say.t('calendar-tag-deleted', term.name, term.id),
        status: 'success',
      };
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
