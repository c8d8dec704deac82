/**
 * Which events use a venue, organizer, category or tag: what a delete would touch, said before it
 * is confirmed. Read with the events list's own filters (`venue`, `organizer`, `categories`, `tags`
 * of `GET /events`, `Archive_Event.php` READ_args), over every date and every status the account may
 * see (`status` is checked by `Archive_Base.php` `filter_post_status_list()`: `any` is refused, so
 * the statuses are named).
 */
import { UsageError } from '../../src/core/errors';
import type { Translator } from '../../src/i18n/translate';
import {
  type CalendarClient,
  type CalendarEvent,
  type EventListQuery,
  formatWhen,
} from '../../src/services/calendar';
import { Ambiguous, type LinkKind, resolveName } from './calendar-resolve';
import { clip } from './event-card';

/** Every status but the trash: what an editor's list shows by default, named. */
export const LIVE_STATUSES = 'publish,future,draft,pending,private';

/** How many events are named in a question or reply (the rest are counted). */
const NAMED = 8;

/** The events using one thing: how many, and the first page of them. */
export interface Usage {
  total: number;
  events: CalendarEvent[];
}

/** The list filter that finds the events using `kind` #`id`. */
function filterFor(kind: LinkKind, id: number): EventListQuery {
  if (kind === 'venue') return { venue: [id] };
  if (kind === 'organizer') return { organizer: [id] };
  if (kind === 'category') return { categories: [id] };
  return { tags: [id] };
}

/**
 * The events (past and future, drafts included, not those in the trash) that use `kind` #`id`.
 * Without `strict_dates` the plugin reads each bound as a whole day, so these two cover every event.
 */
export async function eventsUsing(client: CalendarClient, kind: LinkKind, id: number): Promise<Usage> {
  const page = await client.events.list({
    ...filterFor(kind, id),
    start_date: '1970-01-01',
    end_date: '2999-12-31',
    status: LIVE_STATUSES,
    per_page: 50,
  });
  return { total: page.total, events: page.items };
}

/** `2 events use it: …` with one line per event (when, title, id), or that none does. */
export function usageText(usage: Usage, zone: string, say: Translator): string {
  if (usage.total === 0) return say.t('calendar-usage-none');
  const lines = usage.events.slice(0, NAMED).map((event) => {
    const when = formatWhen(event, zone).replace(` (${zone})`, '');
    const status = event.status === 'publish' ? '' : ` [${event.status}]`;
    return `• ${when} — ${clip(event.title, 80)} (#${event.id})${status}`;
  });
  const more = usage.total - lines.length;
  return [
    say.t('calendar-usage-count', usage.total),
    ...lines,
    ...(more > 0 ? [say.t('calendar-usage-more', more)] : []),
  ].join('\n');
}

/**
 * Resolves a name or id for a command that changes or deletes one thing: a name shared by several
 * is refused with their ids (a delete must name exactly one).
 */
export async function resolveOne(client: CalendarClient, kind: LinkKind, text: string): Promise<number> {
  const resolved = await resolveName(client, kind, text);
  if (resolved instanceof Ambiguous) {
    const { kind: shared, name, candidates } = resolved;
    const labels = candidates.map((c) => c.label).join('; ');
    throw UsageError.inWords((say) =>
      shared === 'venue'
        ? {
            message: say.t('venue-ambiguous', candidates.length, name, labels),
            hint: say.t('venue-ambiguous-hint'),
          }
        : {
            message: say.t('organizer-ambiguous', candidates.length, name, labels),
            hint: say.t('organizer-ambiguous-hint'),
          },
    );
  }
  return resolved;
}
