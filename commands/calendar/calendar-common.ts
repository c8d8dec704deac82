/** What every calendar command starts with: a client for the user, and the site's time zone. */
import type { ChatUser } from '../../src/core/command';
import type { Translator } from '../../src/i18n/translate';
import type { CalendarClient, CalendarSite } from '../../src/services/calendar';
import type { CalendarServices } from './context';

/** The calendar as one command sees it. */
export interface CalendarContext {
  /** Acts as the user (their own credentials once linked, else the bot-wide ones). */
  client: CalendarClient;
  site: CalendarSite;
  /** The site's time zone: times are typed and shown in it unless said otherwise. */
  zone: string;
}

/** The client for `user` and the site's details. */
export async function calendarFor(services: CalendarServices, user: ChatUser): Promise<CalendarContext> {
  const client = await services.calendar.forUser(user);
  const site = await services.calendar.site();
  return { client, site, zone: site.timezone };
}

/** What a page footer counts. */
export type Counted = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

/** `17 events`, in the reader's language. */
function counted(say: Translator, noun: Counted, count: number): string {
  if (noun === 'event') return say.t('calendar-count-events', count);
  if (noun === 'venue') return say.t('calendar-count-venues', count);
  if (noun === 'organizer') return say.t('calendar-count-organizers', count);
  if (noun === 'category') return say.t('calendar-count-categories', count);
  return say.t('calendar-count-tags', count);
}

/** A page footer: `Page 1 of 2 · 17 events · times in Europe/Berlin`. */
export function pageFooter(
  page: { page: number; totalPages: number; total: number },
  noun: Counted,
  say: Translator,
  zone?: string,
) {
  const parts = [
    page.totalPages > 1 ? say.t('calendar-page-of', page.page, page.totalPages) : undefined,
    counted(say, noun, page.total),
    zone ? say.t('calendar-times-in', zone) : undefined,
  ];
  return parts.filter(Boolean).join(' · ');
}
