/**
 * Dates relative to today for tests that list *upcoming* events: a fixed date such as 2026-12-01
 * passes until that day and fails after it. Days are counted in the calendar site's zone (the
 * sandbox seeds its events from today there), so a run near midnight UTC counts the same days.
 */
import { DateTime } from 'luxon';

/** The calendar sandbox's zone (its site's `timezone`). */
const SITE_ZONE = 'Europe/Berlin';

/** The text commands and the calendar API take for a wall-clock time: `YYYY-MM-DD HH:MM`. */
const WALL_TIME = 'yyyy-MM-dd HH:mm';

/** The day `days` after today in `zone`, as `YYYY-MM-DD` (`dayFromNow(1)` is tomorrow in Berlin). */
export function dayFromNow(days: number, zone: string = SITE_ZONE): string {
  return DateTime.now().setZone(zone).startOf('day').plus({ days }).toFormat('yyyy-MM-dd');
}

/**
 * Reads a `YYYY-MM-DD HH:MM` text (a {@link dayFromNow} and a time) as that wall-clock time in
 * `zone`, in English, so a test can derive the text a card shows (`.toFormat('ccc d LLL yyyy')`).
 */
export function wallTime(text: string, zone: string = SITE_ZONE): DateTime {
  return DateTime.fromFormat(text, WALL_TIME, { zone, locale: 'en' });
}
