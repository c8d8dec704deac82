/**
 * How long a lock lasts: `--for 2h` (a duration) or `--until 18:00` / `--until 2026-12-01T09:00` (a
 * wall-clock time in the conversation's zone), 4 hours when neither is given, at most 14 days.
 */
import { DateTime } from 'luxon';
import { UsageError } from '../../src/core/errors';

/** How long a lock lasts when neither `--for` nor `--until` is given. */
export const DEFAULT_LOCK_MS = 4 * 3_600_000;
/** The longest lock. */
export const MAX_LOCK_MS = 14 * 86_400_000;
const MIN_LOCK_MS = 60_000;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90m`, `2h`, `1d`, `1h30m` in ms. */
export function parseDuration(text: string): number {
  const parts = [
    ...text
      .trim()
      .toLowerCase()
      .matchAll(/(\d{1,4})([mhd])/g),
  ];
  const joined = parts.map((p) => p[0]).join('');
  if (parts.length === 0 || joined !== text.trim().toLowerCase()) {
    const given = text.slice(0, 20);
    throw UsageError.inWords((say) => ({
      message: say.t('lock-bad-duration', given),
      hint: say.t('lock-bad-duration-hint'),
    }));
  }
  return parts.reduce((sum, p) => sum + Number(p[1]) * (UNIT_MS[p[2] as string] as number), 0);
}

/** `18:00` (its next occurrence), `2026-12-01T09:00` or `2026-12-01 09:00`, in `zone`, as Unix ms. */
export function parseUntil(text: string, zone: string, now: number): number {
  const trimmed = text.trim();
  const clock = /^(\d{1,2}):(\d{2})$/.exec(trimmed);
  if (clock && Number(clock[1]) < 24 && Number(clock[2]) < 60) {
    const today = DateTime.fromMillis(now, { zone }).set({
      hour: Number(clock[1]),
      minute: Number(clock[2]),
      second: 0,
      millisecond: 0,
    });
    return (today.toMillis() > now ? today : today.plus({ days: 1 })).toMillis();
  }
  const date = DateTime.fromISO(trimmed.replace(' ', 'T'), { zone });
  if (!date.isValid || !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}$/.test(trimmed)) {
    const given = trimmed.slice(0, 30);
    throw UsageError.inWords((say) => ({
      message: say.t('lock-bad-until', given),
      hint: say.t('lock-bad-until-hint'),
    }));
  }
  return date.toMillis();
}

/** When a lock taken at `now` ends, from `--for` or `--until` (not both). */
export function lockEnd(
  options: { for?: string | undefined; until?: string | undefined },
  zone: string,
  now: number,
): number {
  if (options.for !== undefined && options.until !== undefined) {
    throw UsageError.inWords((say) => ({
      message: say.t('lock-for-or-until'),
      hint: say.t('lock-for-or-until-hint'),
    }));
  }
  const end =
    options.for !== undefined
      ? now + parseDuration(options.for)
      : options.until !== undefined
        ? parseUntil(options.until, zone, now)
        : now + DEFAULT_LOCK_MS;
  if (end - now < MIN_LOCK_MS) {
    throw UsageError.inWords((say) => ({
      message: say.t('lock-too-short'),
      hint: say.t('lock-nothing-locked'),
    }));
  }
  if (end - now > MAX_LOCK_MS) {
    throw UsageError.inWords((say) => ({
      message: say.t('lock-too-long', 14),
      hint: say.t('lock-too-long-hint'),
    }));
  }
  return end;
}
