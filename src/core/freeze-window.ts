/**
 * Weekly freeze windows (`fri 15:00 - mon 08:00`): wall-clock times in an IANA zone, repeated every
 * week. Whether a moment is inside one is decided on the zone's own wall clock (luxon with the tz
 * database), so a window keeps its local hours across daylight-saving changes; its start and end
 * as moments are computed the same way, never with a fixed UTC offset.
 */
import { DateTime } from 'luxon';
import type { MessageKey } from '../i18n/translate';
import { UsageError } from './errors';
import { isTimeZone } from './times';

/** A wall-clock point of the week: day 1 (Monday) to 7 (Sunday) and minutes after midnight. */
export interface WeekPoint {
  weekday: number;
  minutes: number;
}

/** A weekly window from `start` (included) to `end` (excluded), in `zone`. */
export interface FreezeWindow {
  start: WeekPoint;
  end: WeekPoint;
  /** IANA zone name of the wall clock (`Europe/Berlin`). */
  zone: string;
}

const MINUTES_PER_DAY = 1440;
const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;
const DAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** The usage line of a window, for error messages. */
export const WINDOW_USAGE = '<day> <HH:MM> - <day> <HH:MM>, e.g. fri 15:00 - mon 08:00';

const FULL_DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** The refusal of one word of a window (a day, a time), naming it and saying how to write it. */
function wrongWord(message: MessageKey, hint: MessageKey, word: string): UsageError {
  const given = word.slice(0, 20);
  return UsageError.inWords((say) => ({ message: say.t(message, given), hint: say.t(hint) }), {
    usage: WINDOW_USAGE,
  });
}

function parseDay(word: string): number {
  const lower = word.toLowerCase();
  const index = FULL_DAY_NAMES.findIndex((day) => lower.length >= 3 && day.startsWith(lower));
  if (index < 0) {
    throw wrongWord('freeze-window-bad-day', 'freeze-window-bad-day-hint', word);
  }
  return index + 1;
}

function parseClock(word: string): number {
  const match = /^(\d{1,2}):(\d{2})$/.exec(word);
  const hours = Number(match?.[1]);
  const minutes = Number(match?.[2]);
  if (!match || hours > 23 || minutes > 59) {
    throw wrongWord('freeze-window-bad-time', 'freeze-window-bad-time-hint', word);
  }
  return hours * 60 + minutes;
}

/** Parses `fri 15:00 - mon 08:00` (also `fri 15:00-mon 08:00`, full day names) in `zone`. */
export function parseFreezeWindow(text: string, zone: string): FreezeWindow {
  if (!isTimeZone(zone)) {
    const given = zone.slice(0, 64);
    throw UsageError.inWords((say) => ({
      message: say.t('freeze-window-bad-zone', given),
      hint: say.t('freeze-window-bad-zone-hint'),
    }));
  }
  const halves = text.trim().split(/\s*-\s*/);
  if (halves.length !== 2) {
    throw UsageError.inWords((say) => ({ message: say.t('freeze-window-no-dash') }), { usage: WINDOW_USAGE });
  }
  const [start, end] = halves.map((half) => {
    const words = half.split(/\s+/).filter(Boolean);
    if (words.length !== 2) {
      const given = half.slice(0, 40);
      throw UsageError.inWords((say) => ({ message: say.t('freeze-window-bad-point', given) }), {
        usage: WINDOW_USAGE,
      });
    }
    return { weekday: parseDay(words[0] as string), minutes: parseClock(words[1] as string) };
  }) as [WeekPoint, WeekPoint];
  if (start.weekday === end.weekday && start.minutes === end.minutes) {
    throw UsageError.inWords((say) => ({ message: say.t('freeze-window-empty') }), { usage: WINDOW_USAGE });
  }
  return { start, end, zone };
}

/** `fri 15:00 - mon 08:00`: the window as it is typed. */
export function windowText(window: Pick<FreezeWindow, 'start' | 'end'>): string {
  const point = (p: WeekPoint) => {
    const hours = String(Math.floor(p.minutes / 60)).padStart(2, '0');
    const minutes = String(p.minutes % 60).padStart(2, '0');
    return `${DAY_NAMES[p.weekday - 1]} ${hours}:${minutes}`;
  };
  return `${point(window.start)} - ${point(window.end)}`;
}

function weekMinute(p: WeekPoint): number {
  return (p.weekday - 1) * MINUTES_PER_DAY + p.minutes;
}

/** True when the moment `at` (ms) falls inside the window on its zone's wall clock. */
export function insideWindow(window: FreezeWindow, at: number): boolean {
  const local = DateTime.fromMillis(at, { zone: window.zone });
  const now = weekMinute({ weekday: local.weekday, minutes: local.hour * 60 + local.minute });
  const start = weekMinute(window.start);
  const end = weekMinute(window.end);
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/** The first moment at or after `at` when the zone's wall clock shows `point` (DST gaps move it on). */
function nextMoment(point: WeekPoint, zone: string, at: number): number {
  const local = DateTime.fromMillis(at, { zone });
  let candidate = local
    .startOf('day')
    .plus({ days: (point.weekday - local.weekday + 7) % 7 })
    .set({ hour: Math.floor(point.minutes / 60), minute: point.minutes % 60 });
  if (candidate.toMillis() < at) candidate = candidate.plus({ weeks: 1 });
  return candidate.toMillis();
}

/** The window's next end after `at` (ms): when a freeze that holds at `at` is over. */
export function windowEnd(window: FreezeWindow, at: number): number {
  return nextMoment(window.end, window.zone, at);
}

/** The window's next start at or after `at` (ms). */
export function windowStart(window: FreezeWindow, at: number): number {
  return nextMoment(window.start, window.zone, at);
}

/** The window's length in wall-clock minutes (what the user typed, whatever the offsets). */
export function windowMinutes(window: Pick<FreezeWindow, 'start' | 'end'>): number {
  return (weekMinute(window.end) - weekMinute(window.start) + MINUTES_PER_WEEK) % MINUTES_PER_WEEK;
}
