/**
 * `/calendar digest`: an upcoming-events digest posted to the conversation on a schedule (this is
 * what `/subscribe calendar --digest daily|weekly --at 09:00` means), run by the `digest` queue.
 */
import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import { describeDigest as describe, digestCard as renderDigest } from '../../src/core/digest-view';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { absoluteText } from '../../src/core/times';
import type { DigestJobData, DigestSchedule } from '../../src/queue/digest-scheduler';
import { type CalendarService, nowIn } from '../../src/services/calendar';
import { WEEKDAYS } from '../../src/services/calendar/weekdays';
import { checkTimezone, timezoneText } from './calendar-args';
import { command } from './context';
import { eventLines, eventsCommand, startWindow } from './events';

/** Events a digest lists at most. */
const DIGEST_SIZE = 15;

/**
 * The digest card: the published events of the next day (daily) or week (weekly), in the site's
 * time zone. Undefined when there are none (nothing is posted then).
 */
export async function digestCard(
  calendar: CalendarService,
  data: DigestJobData,
): Promise<DraftCard | undefined> {
  const site = await calendar.site();
  const now = nowIn(site.timezone);
  const until = now.plus(data.every === 'daily' ? { days: 1 } : { days: 7 });
  const page = await calendar.anonymous().events.list({
    // Events starting in the window, bounds with an explicit offset (the plugin reads strict ones as UTC).
    ...startWindow(now, until),
    strict_dates: true,
    status: 'publish',
    per_page: DIGEST_SIZE,
  });
  const more = page.total - page.items.length;
  return renderDigest({
    title: data.every === 'daily' ? 'Events in the next 24 hours' : 'Events in the next 7 days',
    sections: [{ heading: 'Events', lines: eventLines(page.items, site.timezone) }],
    when: data,
    stop: '/calendar digest --off',
    note: `${more > 0 ? `and ${more} more · ` : ''}times in ${site.timezone}`,
    actions: [actionTo(eventsCommand, {}, { label: 'All upcoming events' })],
  });
}

function nextRun(schedule: DigestSchedule): string {
  if (!schedule.next) return '';
  return ` Next one: ${absoluteText({ at: new Date(schedule.next).getTime() })}.`;
}

/** `/calendar digest [--daily|--weekly] [--at 09:00] [--day mon] [--timezone TZ] [--off] [--preview]`. */
export const calendarDigestCommand = command({
  name: 'calendar digest',
  args: z.object({
    daily: z.boolean().default(false).describe('opt-daily'),
    weekly: z.boolean().default(false).describe('opt-weekly'),
    at: z
      .string()
      .regex(/^([01]?\d|2[0-3]):[0-5]\d$/, 'must be a time of day such as 09:00')
      .default('09:00')
      .describe('opt-at'),
    day: z.enum(WEEKDAYS).default('mon').describe('opt-day'),
    timezone: timezoneText.optional(),
    off: z.boolean().default(false).describe('opt-off'),
    preview: z.boolean().default(false).describe('opt-preview'),
  }),
  examples: [
    '/calendar digest --daily --at 09:00',
    '/calendar digest --weekly --day mon',
    '/calendar digest --off',
  ],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation }) {
    const conversationId = invocation.conversationId;
    const chosen = [args.daily, args.weekly, args.off].filter(Boolean).length;
    if (chosen > 1) {
      throw new UsageError('Choose one of --daily, --weekly and --off.', {
        hint: 'Example: /calendar digest --daily --at 09:00',
      });
    }
    if (args.off) {
      const removed = await services.digests.remove(conversationId);
      return {
        text: removed ? 'The calendar digest here is stopped.' : 'This conversation has no calendar digest.',
        status: removed ? 'success' : 'info',
      };
    }
    const site = await services.calendar.site();
    const zone = args.timezone ? checkTimezone(args.timezone, '--timezone') : site.timezone;
    const [hour, minute] = args.at.split(':') as [string, string];
    const at = `${hour.padStart(2, '0')}:${minute}`;
    const current = await services.digests.get(conversationId);
    if (args.preview) {
      const data = current ?? draft(args, at, zone, invocation);
      const card = await digestCard(services.calendar, data);
      return card ?? { text: 'No events in that period: nothing would be posted today.', status: 'info' };
    }
    if (!args.daily && !args.weekly) {
      if (!current) {
        return {
          text: 'This conversation has no calendar digest. Start one with /calendar digest --daily (or --weekly).',
          status: 'info',
        };
      }
      return { text: `This conversation gets a ${describe(current)}.${nextRun(current)}`, status: 'info' };
    }
    const stored = await services.digests.set(draft(args, at, zone, invocation));
    return {
      text: `This conversation now gets a ${describe(stored)}: the published events of the ${stored.every === 'daily' ? 'next 24 hours' : 'next 7 days'} (nothing is posted when there are none).${nextRun(stored)}`,
      status: 'success',
    };
  },
});

function draft(
  args: { daily: boolean; weekly: boolean; day: (typeof WEEKDAYS)[number] },
  at: string,
  timezone: string,
  invocation: { conversationId: string; user: { platform: DigestJobData['platform']; id: string } },
): DigestJobData {
  return {
    conversationId: invocation.conversationId,
    platform: invocation.user.platform,
    every: args.weekly ? 'weekly' : 'daily',
    at,
    weekday: WEEKDAYS.indexOf(args.day),
    timezone,
    createdBy: `${invocation.user.platform}:${invocation.user.id}`,
  };
}
