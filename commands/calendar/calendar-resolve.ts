/**
 * Venues, organizers, categories and tags by name or id: a number is an id (checked), a name is
 * looked up on the site (case-insensitive, whole name). Several venues with the same name are a
 * choice the user makes with buttons; an unknown name is a usage error that lists what exists.
 */
import { NotFoundError, UsageError } from '../../src/core/errors';
import type { ActionRequest, DraftCard } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import type { CalendarClient, CalendarOrganizer, CalendarVenue } from '../../src/services/calendar';

/** What a name stands for. */
export type LinkKind = 'venue' | 'organizer' | 'category' | 'tag';

/** One candidate of an ambiguous name. */
export interface Candidate {
  id: number;
  /** What tells it apart: `Studio — Oranienstraße 12, Berlin (#12)`. */
  label: string;
}

/** A name that matches several things: the user chooses (only venues and organizers share names). */
export class Ambiguous {
  constructor(
    readonly kind: 'venue' | 'organizer',
    readonly name: string,
    readonly candidates: Candidate[],
  ) {}
}

/** A venue or organizer name that does not exist (a venue may then be created on request). */
export class UnknownName extends UsageError {
  /** What was looked for. */
  readonly kind: LinkKind;
  /** The name as typed. */
  readonly wanted: string;

  constructor(kind: LinkKind, wanted: string, known: string[]) {
    const words = (say: Translator) => ({
      message: [
        unknownName(say, kind, wanted),
        ...(known.length ? [knownNames(say, kind, known.join(', '))] : []),
      ].join(' '),
      hint: hintOf(say, kind),
    });
    const english = words(translator('en'));
    super(english.message, { hint: english.hint, words });
    this.kind = kind;
    this.wanted = wanted;
  }
}

function unknownName(say: Translator, kind: LinkKind, wanted: string): string {
  if (kind === 'venue') return say.t('venue-unknown-name', wanted);
  if (kind === 'organizer') return say.t('organizer-unknown-name', wanted);
  if (kind === 'category') return say.t('category-unknown-name', wanted);
  return say.t('calendar-tag-unknown-name', wanted);
}

function knownNames(say: Translator, kind: LinkKind, names: string): string {
  if (kind === 'venue') return say.t('venue-known', names);
  if (kind === 'organizer') return say.t('organizer-known', names);
  if (kind === 'category') return say.t('category-known', names);
  return say.t('calendar-tag-known', names);
}

function unknownId(say: Translator, kind: LinkKind, id: string): string {
  if (kind === 'venue') return say.t('venue-unknown-id', id);
  if (kind === 'organizer') return say.t('organizer-unknown-id', id);
  if (kind === 'category') return say.t('category-unknown-id', id);
  return say.t('calendar-tag-unknown-id', id);
}

/** How to name an existing one instead. */
function hintOf(say: Translator, kind: LinkKind): string {
  if (kind === 'venue') return say.t('venue-unknown-hint');
  if (kind === 'organizer') return say.t('organizer-unknown-hint');
  if (kind === 'category') return say.t('category-unknown-hint');
  return say.t('calendar-tag-unknown-hint');
}

function venueLabel(venue: CalendarVenue): string {
  const where = [venue.address, venue.city].filter(Boolean).join(', ');
  return `${venue.name}${where ? ` — ${where}` : ''} (#${venue.id})`;
}

function organizerLabel(organizer: CalendarOrganizer): string {
  return `${organizer.name}${organizer.email ? ` — ${organizer.email}` : ''} (#${organizer.id})`;
}

/** Resolves one name or id of `kind` to an id. */
export async function resolveName(
  client: CalendarClient,
  kind: LinkKind,
  text: string,
): Promise<number | Ambiguous> {
  const value = text.trim();
  if (/^\d+$/.test(value)) {
    try {
      if (kind === 'venue') await client.venues.get(Number(value));
      else if (kind === 'organizer') await client.organizers.get(Number(value));
      else if (kind === 'category') await client.categories.get(Number(value));
      else await client.tags.get(Number(value));
      return Number(value);
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw UsageError.inWords((say) => ({
          message: unknownId(say, kind, value),
          hint: hintOf(say, kind),
        }));
      }
      throw error;
    }
  }
  const wanted = value.toLowerCase();
  if (kind === 'venue' || kind === 'organizer') {
    const api = kind === 'venue' ? client.venues : client.organizers;
    const found = await api.list({ search: value, per_page: 50 });
    const exact = found.items.filter((item) => item.name.toLowerCase() === wanted);
    if (exact.length === 1) return (exact[0] as { id: number }).id;
    if (exact.length > 1) {
      const label = (item: CalendarVenue | CalendarOrganizer) =>
        kind === 'venue' ? venueLabel(item as CalendarVenue) : organizerLabel(item as CalendarOrganizer);
      return new Ambiguous(
        kind,
        value,
        exact.map((item) => ({ id: item.id, label: label(item) })),
      );
    }
    const all = await api.list({ per_page: 50 });
    throw new UnknownName(kind, value, [...new Set(all.items.map((i) => i.name))].slice(0, 12));
  }
  const api = kind === 'category' ? client.categories : client.tags;
  const found = await api.list({ search: value, hide_empty: false, per_page: 50 });
  const exact = found.items.find((t) => t.name.toLowerCase() === wanted || t.slug === wanted);
  if (exact) return exact.id;
  const all = await api.list({ hide_empty: false, per_page: 50 });
  throw new UnknownName(kind, value, all.items.map((t) => t.name).slice(0, 20));
}

/** Resolves several names of one kind. */
export async function resolveNames(
  client: CalendarClient,
  kind: LinkKind,
  texts: readonly string[],
): Promise<number[] | Ambiguous> {
  const ids: number[] = [];
  for (const text of texts) {
    const resolved = await resolveName(client, kind, text);
    if (resolved instanceof Ambiguous) return resolved;
    ids.push(resolved);
  }
  return [...new Set(ids)];
}

/**
 * The card asking which one was meant: one button per candidate, each running `command` again with
 * the chosen id in place of the name.
 */
export function choiceCard(
  ambiguous: Ambiguous,
  command: string,
  args: Record<string, unknown>,
  replace: (args: Record<string, unknown>, id: number) => Record<string, unknown>,
  say: Translator,
): DraftCard {
  const { kind, name, candidates } = ambiguous;
  const actions: ActionRequest[] = ambiguous.candidates.slice(0, 5).map((candidate) => ({
    label: candidate.label.length > 70 ? `${candidate.label.slice(0, 67)}...` : candidate.label,
    command,
    args: replace(args, candidate.id),
    ttlSeconds: 3600,
  }));
  return {
    title: kind === 'venue' ? say.t('venue-which', name) : say.t('organizer-which', name),
    text:
      kind === 'venue'
        ? say.t('venue-which-text', candidates.length, name)
        : say.t('organizer-which-text', candidates.length, name),
    status: 'warning',
    actions,
    visibility: 'private',
  };
}
