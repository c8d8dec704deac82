/** What every calendar command starts with: a client for the user, and the site's time zone. */
import type { ChatUser } from '../../src/core/command';
import { plural } from '../../src/core/plural';
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

/** A page footer: `Page 1 of 2 · 17 events · times in Europe/Berlin`. */
export function pageFooter(
  page: { page: number; totalPages: number; total: number },
  noun: string,
  zone?: string,
) {
  const parts = [
    page.totalPages > 1 ? `Page ${page.page} of ${page.totalPages}` : undefined,
    plural(page.total, noun),
    zone ? `times in ${zone}` : undefined,
  ];
  return parts.filter(Boolean).join(' · ');
}
