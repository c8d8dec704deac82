/** Arguments shared by the calendar commands, and reading dates the way users type them. */
import type { DateTime } from 'luxon';
import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import { t } from '../../src/i18n/translate';
import { isValidTimezone, type ParsedDate, parseDateInput } from '../../src/services/calendar';

/** An event by id or slug. */
export const eventRef = z
  .string()
  .regex(/^(\d{1,12}|[a-z0-9][a-z0-9_-]{0,199})$/i, t('en', 'calendar-event-ref-invalid'))
  .meta({ invalid: 'calendar-event-ref-invalid' })
  .describe('opt-ref-event-show');

/** A date as typed, described by the catalog message `description`. */
export const dateText = (description: string) => z.string().min(1).max(60).describe(description);

/** A time zone as typed (checked when the command runs, with a message naming the flag). */
export const timezoneText = z.string().min(1).max(64).describe('opt-timezone');

/** A venue, organizer, category or tag by name or id, described by the catalog message `description`. */
export const nameOrId = (description: string) => z.string().min(1).max(200).describe(description);

/** An http(s) URL. */
export const webUrl = z
  .url({ protocol: /^https?$/, message: t('en', 'calendar-url-invalid') })
  .max(2000)
  .meta({ invalid: 'calendar-url-invalid' });

/**
 * A text that must not be empty once trimmed (a name, a title), refused in the reader's language
 * when it is.
 */
export const nonEmptyText = (max: number) =>
  z.string().trim().min(1, t('en', 'calendar-not-empty')).max(max).meta({ invalid: 'calendar-not-empty' });

/** What a venue has besides its name: given to `/venues create`, changed by `/venues update`. */
export const venueDetails = {
  address: z.string().max(300).optional().describe('opt-address'),
  city: z.string().max(100).optional().describe('opt-city'),
  zip: z.string().max(20).optional().describe('opt-zip'),
  country: z.string().max(100).optional().describe('opt-country'),
  phone: z.string().max(50).optional().describe('opt-phone'),
  website: webUrl.optional().describe('opt-website-venues-create'),
  description: z.string().max(5000).optional().describe('opt-description-venues-create'),
};

/** What an organizer has besides its name: given to `/organizers create`, changed by `/organizers update`. */
export const organizerDetails = {
  email: z
    .email({ message: t('en', 'calendar-email-invalid') })
    .meta({ invalid: 'calendar-email-invalid' })
    .optional()
    .describe('opt-email'),
  phone: z.string().max(50).optional().describe('opt-phone'),
  website: webUrl.optional().describe('opt-website-organizers-create'),
  description: z.string().max(5000).optional().describe('opt-description-organizers-create'),
};

/** The new name given to an update of a venue or an organizer. */
export const newName = nonEmptyText(200).optional().describe('opt-name-venues-update');

/** A 1-based page number (set by paging buttons, or typed). */
export const pageNumber = z.number().int().min(1).max(10_000).default(1).describe('opt-page');

/** Checks a time zone typed with `flag`; returns it. */
export function checkTimezone(zone: string, flag: string): string {
  if (!isValidTimezone(zone)) {
    throw UsageError.inWords((say) => ({
      message: say.t('calendar-timezone-invalid', flag, zone),
      hint: say.t('calendar-timezone-invalid-hint'),
    }));
  }
  return zone;
}

/** Reads a date typed with `flag` in `zone`, or throws a usage error naming the flag and the formats. */
export function readDate(text: string, zone: string, flag: string): ParsedDate {
  const parsed = parseDateInput(text, zone);
  if ('problem' in parsed) {
    const { problem } = parsed;
    throw UsageError.inWords((say) => ({
      message: say.t('validation-invalid', flag, problem),
      hint: say.t('calendar-date-formats'),
    }));
  }
  return parsed;
}

/** The start and end of an event from what the user typed: defaults, all-day days, order checked. */
export function eventTimes(
  input: { start: string; end?: string | undefined; allDay: boolean },
  zone: string,
): { start: DateTime; end: DateTime; allDay: boolean } {
  const start = readDate(input.start, zone, '--start');
  const end = input.end === undefined ? undefined : readDate(input.end, zone, '--end');
  const allDay = input.allDay || (!start.hasTime && (end === undefined || !end.hasTime));
  if (allDay) {
    const first = start.dateTime.startOf('day');
    const last = (end?.dateTime ?? start.dateTime).endOf('day').set({ millisecond: 0 });
    if (last < first) throw endBeforeStart(input);
    return { start: first, end: last, allDay: true };
  }
  if (!start.hasTime) {
    throw UsageError.inWords((say) => ({ message: say.t('calendar-start-needs-time') }));
  }
  const endAt = end === undefined ? start.dateTime.plus({ hours: 1 }) : end.dateTime;
  if (end && !end.hasTime) {
    throw UsageError.inWords((say) => ({ message: say.t('calendar-end-needs-time') }));
  }
  if (endAt <= start.dateTime) throw endBeforeStart(input);
  return { start: start.dateTime, end: endAt, allDay: false };
}

function endBeforeStart(input: { start: string; end?: string | undefined }): UsageError {
  const { start, end = '' } = input;
  return UsageError.inWords((say) => ({
    message: say.t('calendar-ends-before-start', end, start),
    hint: say.t('calendar-ends-before-start-hint'),
  }));
}
