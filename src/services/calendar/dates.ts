/**
 * Dates as the calendar API speaks them: `YYYY-MM-DD HH:MM:SS` with no offset, read in the event's
 * `timezone` (or the site's) on write, and written back in the event's zone (`start_date`) and in UTC
 * (`utc_start_date`). Users type dates in a zone they name or in the site's; cards show the site's.
 */
import { DateTime, Info } from 'luxon';
import { type Translator, translator } from '../../i18n/translate';

/** The API's date-time format (luxon tokens). */
export const WP_DATE_TIME = 'yyyy-MM-dd HH:mm:ss';

/** A date the user typed, read in a time zone. */
export interface ParsedDate {
  /** The moment, in the zone it was read in. */
  dateTime: DateTime;
  /** False for a bare date (`2026-12-01`): a whole day. */
  hasTime: boolean;
}

/** The formats {@link parseDateInput} accepts, for messages in `say`'s language. */
export function dateFormats(say: Translator): string {
  return say.t('calendar-api-date-formats');
}

/** The formats {@link parseDateInput} accepts, for English messages. */
export const DATE_FORMATS = dateFormats(translator('en'));

/** A date that could not be read: why, in English and in the reader's language. */
export interface DateProblem {
  /** Why, in English (a sentence without its full stop). */
  problem: string;
  /** Why, in the reader's language. */
  words: (say: Translator) => string;
}

function dateProblem(words: (say: Translator) => string): DateProblem {
  return { problem: words(translator('en')), words };
}

const LOCAL = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const RELATIVE = /^(today|tomorrow)(?:\s+(\d{1,2}):(\d{2}))?$/i;

/**
 * True for a zone the calendar accepts: an IANA name (`Europe/Berlin`), `UTC`, or an offset such as
 * `UTC+2` (WordPress's legacy setting).
 */
export function isValidTimezone(zone: string): boolean {
  if (!zone.trim()) return false;
  return Info.isValidIANAZone(zone) || /^UTC([+-]\d{1,2}(:\d{2})?)?$/.test(zone);
}

/** luxon's name for a calendar zone (`UTC+2` → `UTC+2`, an IANA name as is). */
function luxonZone(zone: string): string {
  const offset = /^UTC([+-])(\d{1,2})(?::(\d{2}))?$/.exec(zone);
  if (!offset) return zone;
  const [, sign, hours, minutes] = offset;
  return `UTC${sign}${Number(hours)}${minutes && minutes !== '00' ? `:${minutes}` : ''}`;
}

/**
 * Reads a date the user typed in `zone`. Returns a problem (a sentence) instead when it is not a date
 * in one of {@link DATE_FORMATS} or does not exist (month 13, 31 April).
 */
export function parseDateInput(
  text: string,
  zone: string,
  now: DateTime = DateTime.now(),
): ParsedDate | DateProblem {
  const input = text.trim();
  const opts = { zone: luxonZone(zone) };
  let dateTime: DateTime;
  let hasTime = true;
  const relative = RELATIVE.exec(input);
  const local = LOCAL.exec(input);
  if (relative) {
    const [, word, hour, minute] = relative;
    const day = now
      .setZone(opts.zone)
      .startOf('day')
      .plus({ days: word?.toLowerCase() === 'tomorrow' ? 1 : 0 });
    hasTime = hour !== undefined;
    dateTime = hasTime ? day.set({ hour: Number(hour), minute: Number(minute) }) : day;
    if (hasTime && (Number(hour) > 23 || Number(minute) > 59)) {
      return dateProblem((say) => say.t('calendar-api-not-a-time', input));
    }
  } else if (local) {
    const [, date, hour, minute, second] = local;
    hasTime = hour !== undefined;
    const iso = hasTime ? `${date}T${hour?.padStart(2, '0')}:${minute}:${second ?? '00'}` : `${date}`;
    dateTime = DateTime.fromISO(iso, opts);
  } else if (WITH_OFFSET.test(input)) {
    dateTime = DateTime.fromISO(input.replace(' ', 'T'), opts);
  } else {
    return dateProblem((say) => say.t('calendar-api-not-a-date', input, dateFormats(say)));
  }
  if (!dateTime.isValid) {
    // luxon's own explanation ("you specified 30 (of type number) as a day") is not for chat.
    return dateProblem((say) => say.t('calendar-api-no-such-date', input));
  }
  return { dateTime, hasTime };
}

/** A moment as the API's `YYYY-MM-DD HH:MM:SS`, in `zone` (default: the moment's own zone). */
export function toApiDate(dateTime: DateTime, zone?: string): string {
  return (zone ? dateTime.setZone(luxonZone(zone)) : dateTime).toFormat(WP_DATE_TIME);
}

/** Reads an API date string (`YYYY-MM-DD HH:MM:SS`, no offset) that is in `zone`. */
export function fromApiDate(text: string, zone: string): DateTime {
  return DateTime.fromFormat(text, WP_DATE_TIME, { zone: luxonZone(zone) });
}

/** The current moment in `zone`. */
export function nowIn(zone: string): DateTime {
  return DateTime.now().setZone(luxonZone(zone));
}

/** An event's times as the API returns them. */
export interface EventTimes {
  allDay: boolean;
  utcStartDate: string;
  utcEndDate: string;
  startDate: string;
  endDate: string;
  timezone: string;
}

/**
 * When an event happens, in `zone` (the site's): `Tue 1 Dec 2026, 18:00–21:00 (Europe/Berlin)`, or
 * `Sat 5 Dec 2026 (all day)`; several days are shown as a range.
 */
export function formatWhen(event: EventTimes, zone: string, say: Translator = translator('en')): string {
  // English keeps luxon's own names (`Tue`, `Dec`); another language has its own.
  const local = (at: DateTime) => (say.language === 'en' ? at : at.setLocale(say.language));
  if (event.allDay) {
    // All-day events keep their calendar days whatever the zone: read them in the event's own zone.
    const start = local(fromApiDate(event.startDate, event.timezone));
    const end = local(fromApiDate(event.endDate, event.timezone));
    const sameDay = start.hasSame(end, 'day');
    return sameDay
      ? say.t('calendar-api-all-day', start.toFormat(DAY))
      : say.t('calendar-api-all-days', start.toFormat('ccc d LLL'), end.toFormat(DAY));
  }
  const start = local(fromApiDate(event.utcStartDate, 'UTC').setZone(luxonZone(zone)));
  const end = local(fromApiDate(event.utcEndDate, 'UTC').setZone(luxonZone(zone)));
  const range = start.hasSame(end, 'day')
    ? `${start.toFormat(DAY_TIME)}–${end.toFormat('HH:mm')}`
    : `${start.toFormat(DAY_TIME)} – ${end.toFormat(DAY_TIME)}`;
  return `${range} (${zone})`;
}

/** A day and a day with its time, as cards show them (luxon tokens: `Tue 1 Dec 2026, 18:00`). */
const DAY = 'ccc d LLL yyyy';
const DAY_TIME = `${DAY}, HH:mm`;

/** True when two zone names mean the same offsets (so a second, local time is not worth showing). */
export function sameZone(a: string, b: string): boolean {
  return luxonZone(a) === luxonZone(b);
}

/**
 * A moment as a `strict_dates` bound of `GET /events`: ISO 8601 with an explicit offset, in UTC
 * (`2026-11-30T23:00:00+00:00`). The plugin reads bounds with `new DateTime( $date )` under PHP's
 * default zone — UTC in WordPress — (tribe-common `Tribe__Timezones::localize_date`), so a bare
 * wall-clock time in the site's zone would be off by the site's offset; an explicit offset is read
 * as written whatever PHP's zone is.
 */
export function toQueryBound(dateTime: DateTime): string {
  return dateTime.setZone('UTC').toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}
