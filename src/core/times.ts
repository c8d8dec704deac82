/**
 * The one time formatter of cards. A card carries times as values ({@link CardTime}); each renderer
 * shows them at the moment it draws the card: a platform with a native date token shows it in each
 * reader's own zone (the adapter formats the token, and the relative part stays current), the others
 * and the terminal as text in the conversation's time zone (`/timezone`, default UTC), with a relative part only on a card that
 * is still being redrawn, so a finished card never says "just now" forever.
 */
import { DateTime, IANAZone } from 'luxon';
import { t } from '../i18n/translate';

/** A moment on a card. */
export interface CardTime {
  /** Milliseconds since the epoch. */
  at: number;
  /** Also say how long ago (or how soon) it is. */
  relative?: boolean;
  /** The day only (no time of day). */
  dateOnly?: boolean;
}

/** The time zone of a conversation that has none set. */
export const DEFAULT_TIME_ZONE = 'UTC';

/** Per-conversation time zones (`/timezone`), stored by the application. */
export interface TimeZoneStore {
  get(conversationId: string): Promise<string | undefined>;
  /** Sets the zone; `undefined` goes back to the default. */
  set(conversationId: string, zone: string | undefined): Promise<void>;
}

/** True for an IANA zone name luxon knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  return zone.length <= 64 && IANAZone.isValidZone(zone);
}

/** The zone to show times in: the given one when valid, else UTC. */
function zoneOf(zone: string | undefined): string {
  return zone && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

/** A valid time value: a finite number of milliseconds. */
export function isValidTime(time: CardTime | undefined): time is CardTime {
  return time !== undefined && Number.isFinite(time.at);
}

/** A time from a date, or undefined when the date is missing or invalid. */
export function cardTime(
  date: Date | number | undefined,
  options: Omit<CardTime, 'at'> = {},
): CardTime | undefined {
  if (date === undefined) return undefined;
  const at = typeof date === 'number' ? date : date.getTime();
  return Number.isFinite(at) ? { at, ...options } : undefined;
}

/**
 * `Mon 23 Nov 2026, 17:55 UTC`, or `… 18:55 (Europe/Berlin)` in another zone; `Mon 23 Nov 2026`
 * for a day. No seconds, no `T`, no `Z`: the same shape everywhere a time is text.
 */
export function absoluteText(time: CardTime, zone?: string, locale?: string): string {
  const name = zoneOf(zone);
  const language = inLocale(locale);
  const date = DateTime.fromMillis(time.at, { zone: name, locale: language });
  const day = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' } as const;
  // English in the one text shape; another language in its own (`Sa., 28. Nov. 2026, 13:54`).
  const english = language === 'en-GB';
  if (time.dateOnly) return english ? date.toFormat('ccc d LLL yyyy') : date.toLocaleString(day);
  const text = english
    ? date.toFormat('ccc d LLL yyyy, HH:mm')
    : date.toLocaleString({ ...day, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return name === 'UTC' ? `${text} UTC` : `${text} (${name})`;
}

/** `3 minutes ago`, `in 2 hours`, `just now` (under a minute), computed against `now`. */
export function relativeText(time: CardTime, now = Date.now(), locale?: string): string {
  const language = inLocale(locale);
  if (Math.abs(now - time.at) < 60_000)
    return language === 'en-GB'
      ? t('en', 'time-just-now')
      : new Intl.RelativeTimeFormat(language, { numeric: 'auto' }).format(0, 'second');
  return DateTime.fromMillis(time.at).toRelative({ base: DateTime.fromMillis(now), locale: language }) ?? '';
}

/** The Intl locale of times on a card written in `locale` (English ones in the one text shape). */
function inLocale(locale: string | undefined): string {
  return !locale || locale === 'en' ? 'en-GB' : locale;
}

/**
 * A time as text (platforms without a date token, the terminal, and the places where a platform shows no token: titles,
 * footers, fallbacks). The relative part is added only when `live` (the card will be redrawn).
 */
export function timeText(
  time: CardTime,
  zone?: string,
  live = false,
  now = Date.now(),
  locale?: string,
): string {
  const absolute = absoluteText(time, zone, locale);
  return time.relative && live ? `${absolute} (${relativeText(time, now, locale)})` : absolute;
}

/** Compact `2026-11-23 17:55` in UTC, for fixed-width tables (code blocks show no tokens). */
export function tableTime(date: Date | number | undefined): string {
  const time = cardTime(date);
  if (!time) return '-';
  return DateTime.fromMillis(time.at, { zone: 'UTC' }).toFormat('yyyy-MM-dd HH:mm');
}

/** The ISO 8601 timestamps a service may put in its own messages (`2026-11-23T17:55:12.582Z`). */
const ISO_TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})\b/g;

/**
 * A service's message with its ISO timestamps in the one text shape (`Mon 23 Nov 2026, 17:55 UTC`),
 * e.g. `Finished at 2026-11-23T17:55:12.582Z`. Linear: one regex pass without
 * nested repetition.
 */
export function readableTimes(text: string, zone?: string): string {
  return text.replace(ISO_TIMESTAMP, (match) => {
    const at = Date.parse(match.replace(' ', 'T'));
    return Number.isFinite(at) ? absoluteText({ at }, zone) : match;
  });
}
