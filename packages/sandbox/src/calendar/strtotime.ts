/**
 * The part of PHP's `strtotime()` the plugin's `is_time` validation and date handling need: numeric
 * timestamps, `YYYY-MM-DD[ HH:MM[:SS]]`, ISO 8601 with an offset, `now`/`today`/`tomorrow`/
 * `yesterday` (optionally followed by a time), and `+N day|week|month|year` offsets. Local times
 * are read in the zone given (the event's, or the site's).
 */
import { DateTime, Info } from 'luxon';

const UNITS: Record<string, 'days' | 'weeks' | 'months' | 'years' | 'hours' | 'minutes'> = {
  day: 'days',
  week: 'weeks',
  month: 'months',
  year: 'years',
  hour: 'hours',
  minute: 'minutes',
  min: 'minutes',
};

/** True for a zone the plugin accepts (an IANA name, `UTC`, or `UTC±H[:MM]`). */
export function validZone(zone: unknown): zone is string {
  return (
    typeof zone === 'string' &&
    (Info.isValidIANAZone(zone) || /^UTC([+-]\d{1,2}(:\d{2})?)?$/.test(zone)) &&
    DateTime.now().setZone(zone).isValid
  );
}

/** Reads a date the way `strtotime()` would, in `zone`; undefined when it is not a date. */
export function parseTime(value: unknown, zone: string, now: number): DateTime | undefined {
  if (typeof value === 'number') return DateTime.fromSeconds(value, { zone });
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (text === '') return undefined;
  if (/^\d{9,11}$/.test(text)) return DateTime.fromSeconds(Number(text), { zone });
  const base = DateTime.fromMillis(now, { zone });
  const relative = /^(now|today|tomorrow|yesterday)(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (relative) {
    const [, word, h, m, s] = relative;
    if (word === 'now' && h === undefined) return base;
    const day = base.startOf('day').plus({ days: word === 'tomorrow' ? 1 : word === 'yesterday' ? -1 : 0 });
    if (h === undefined) return day;
    const at = day.set({ hour: Number(h), minute: Number(m), second: Number(s ?? 0) });
    return Number(h) < 24 && Number(m) < 60 ? at : undefined;
  }
  const offset = /^([+-]\d+)\s*(day|week|month|year|hour|minute|min)s?$/.exec(text);
  if (offset) return base.plus({ [UNITS[offset[2] as string] as string]: Number(offset[1]) });
  const local = /^(\d{4}-\d{2}-\d{2})(?:[ t](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (local) {
    const [, date, h, m, s] = local;
    const iso = h === undefined ? date : `${date}T${h.padStart(2, '0')}:${m}:${s ?? '00'}`;
    const parsed = DateTime.fromISO(iso as string, { zone });
    return parsed.isValid ? parsed : undefined;
  }
  const parsed = DateTime.fromISO(value.trim().replace(' ', 'T'), { zone });
  return parsed.isValid ? parsed : undefined;
}

/** The API's output format. */
export function apiDate(dateTime: DateTime): string {
  return dateTime.toFormat('yyyy-MM-dd HH:mm:ss');
}

/** `{year, month, day, hour, minutes, seconds}` as zero-padded strings. */
export function dateDetails(dateTime: DateTime): Record<string, string> {
  return {
    year: dateTime.toFormat('yyyy'),
    month: dateTime.toFormat('MM'),
    day: dateTime.toFormat('dd'),
    hour: dateTime.toFormat('HH'),
    minutes: dateTime.toFormat('mm'),
    seconds: dateTime.toFormat('ss'),
  };
}

/** The stored wall-clock times of an event (`_EventStartDate`/`_EventEndDate`), in its zone. */
export function localTimes(event: {
  startUtc: number;
  endUtc: number;
  timezone: string;
  localStart?: string | undefined;
  localEnd?: string | undefined;
}): { start: DateTime; end: DateTime } {
  const read = (stored: string | undefined, ms: number) =>
    stored === undefined
      ? DateTime.fromMillis(ms, { zone: event.timezone })
      : DateTime.fromFormat(stored, 'yyyy-MM-dd HH:mm:ss', { zone: event.timezone });
  return { start: read(event.localStart, event.startUtc), end: read(event.localEnd, event.endUtc) };
}
