/**
 * `/calendar digest`: an upcoming-events digest posted to the conversation on a schedule (this is
 * what `/subscribe calendar --digest daily|weekly --at 09:00` means), run by the `digest` queue.
 */
import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import { type DigestWhen, digestCard as renderDigest } from '../../src/core/digest-view';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { absoluteText } from '../../src/core/times';
import { type Translator, t, translator } from '../../src/i18n/translate';
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
 * time zone. Undefined when there are none (nothing is posted then). Its words are `say`'s: the
 * conversation's language when the digest runs on its schedule.
 */
export async function digestCard(
  calendar: CalendarService,
  data: DigestJobData,
  say: Translator = translator('en'),
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
  return renderDigest(
    {
      title:
        data.every === 'daily' ? say.t('digest-calendar-title-daily') : say.t('digest-calendar-title-weekly'),
      sections: [
        { heading: say.t('digest-calendar-heading'), lines: eventLines(page.items, site.timezone, say) },
      ],
      when: data,
      stop: '/calendar digest --off',
      note: [
        more > 0 ? say.t('digest-calendar-more', more) : undefined,
        say.t('calendar-times-in', site.timezone),
      ]
        .filter(Boolean)
        .join(' · '),
      actions: [actionTo(eventsCommand, {}, { label: say.t('digest-calendar-all-events') })],
    },
    say,
  );
}

function nextRun(schedule: DigestSchedule, say: Translator): string {
  if (!schedule.next) return '';
  return ` ${say.t('digest-calendar-next', absoluteText({ at: new Date(schedule.next).getTime() }, undefined, say.language))}`;
}

/** On which day a weekly digest comes: `on Mondays`. */
function onWeekday(say: Translator, weekday: number): string {
  const days = [
    say.t('digest-calendar-on-sunday'),
    say.t('digest-calendar-on-monday'),
    say.t('digest-calendar-on-tuesday'),
    say.t('digest-calendar-on-wednesday'),
    say.t('digest-calendar-on-thursday'),
    say.t('digest-calendar-on-friday'),
    say.t('digest-calendar-on-saturday'),
  ];
  return days[weekday] ?? '';
}

/** `daily digest at 09:00 (Europe/Berlin)`, `weekly digest on Mondays at 09:00 (UTC)`. */
function describe(when: DigestWhen, say: Translator): string {
  return when.every === 'weekly'
    ? say.t('digest-calendar-weekly', onWeekday(say, when.weekday), when.at, when.timezone)
    : say.t('digest-calendar-daily', when.at, when.timezone);
}

/** `/calendar digest [--daily|--weekly] [--at 09:00] [--day mon] [--timezone TZ] [--off] [--preview]`. */
export const calendarDigestCommand = command({
  name: 'calendar digest',
  args: z.object({
    daily: z.boolean().default(false).describe('opt-daily'),
    weekly: z.boolean().default(false).describe('opt-weekly'),
    at: z
      .string()
      .regex(/^([01]?\d|2[0-3]):[0-5]\d$/, t('en', 'digest-calendar-at-invalid'))
      .meta({ invalid: 'digest-calendar-at-invalid' })
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
  async run({ args, services, invocation, say = translator('en') }) {
    const conversationId = invocation.conversationId;
    const chosen = [args.daily, args.weekly, args.off].filter(Boolean).length;
    if (chosen > 1) {
      throw UsageError.inWords((say) => ({
        message: say.t('digest-calendar-choose-one'),
        hint: say.t('help-example', '/calendar digest --daily --at 09:00'),
      }));
    }
    if (args.off) {
      const removed = await services.digests.remove(conversationId);
      return {
        text: removed ? say.t('digest-calendar-stopped') : say.t('digest-calendar-none'),
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
      const card = await digestCard(services.calendar, data, say);
      return card ?? { text: say.t('digest-calendar-preview-empty'), status: 'info' };
    }
    if (!args.daily && !args.weekly) {
      if (!current) {
        return {
          text: say.t('digest-calendar-none-start'),
          status: 'info',
        };
      }
      return {
        text: `${say.t('digest-calendar-current', describe(current, say))}${nextRun(current, say)}`,
        status: 'info',
      };
    }
    const stored = await services.digests.set(draft(args, at, zone, invocation));
    return {
      text: `${
        stored.every === 'daily'
          ? say.t('digest-calendar-started-daily', describe(stored, say))
          : say.t('digest-calendar-started-weekly', describe(stored, say))
      }${nextRun(stored, say)}`,
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
