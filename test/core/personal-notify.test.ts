import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NOTIFY_SETTINGS,
  directRecipient,
  inQuietHours,
  type NotifySettings,
  parseQuietHours,
  personalVerdict,
  type QuietHours,
} from '../../src/core/personal-notify';

const at = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toMillis();
const quiet = (text: string, zone: string): QuietHours => {
  const parsed = parseQuietHours(text, zone);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

describe('quiet hours', () => {
  it('parses a range, and says what is wrong with a bad one', () => {
    expect(parseQuietHours('22:00-7:00', 'Europe/Berlin')).toEqual({
      from: '22:00',
      to: '07:00',
      zone: 'Europe/Berlin',
    });
    expect(parseQuietHours('22:00', 'UTC')).toContain('is not a range of times');
    expect(parseQuietHours('25:00-07:00', 'UTC')).toContain('HH:MM on a 24-hour clock');
    expect(parseQuietHours('07:00-07:00', 'UTC')).toContain('different times');
    expect(parseQuietHours('22:00-07:00', 'Mars/Olympus')).toContain('not a time zone');
  });

  it('a range over midnight covers the evening and the next morning, not the day', () => {
    const night = quiet('22:00-07:00', 'UTC');
    expect(inQuietHours(night, at('2026-11-28T23:30', 'UTC'))).toBe(true);
    expect(inQuietHours(night, at('2026-11-29T06:59', 'UTC'))).toBe(true);
    expect(inQuietHours(night, at('2026-11-29T07:00', 'UTC'))).toBe(false);
    expect(inQuietHours(night, at('2026-11-28T14:00', 'UTC'))).toBe(false);
    const lunch = quiet('12:00-13:30', 'UTC');
    expect(inQuietHours(lunch, at('2026-11-28T12:45', 'UTC'))).toBe(true);
    expect(inQuietHours(lunch, at('2026-11-28T13:30', 'UTC'))).toBe(false);
  });

  it('follows the local clock across a daylight saving change', () => {
    const night = quiet('22:00-07:00', 'Europe/Berlin');
    // 29 March 2026: Berlin moves from UTC+1 to UTC+2 at 02:00. 06:30 local is 04:30 UTC that day.
    expect(inQuietHours(night, Date.UTC(2026, 2, 29, 4, 30))).toBe(true);
    // 07:30 local (05:30 UTC): over, though 05:30 UTC would be 06:30 on the winter clock.
    expect(inQuietHours(night, Date.UTC(2026, 2, 29, 5, 30))).toBe(false);
    // The day before (UTC+1), 05:30 UTC is 06:30 local: still quiet.
    expect(inQuietHours(night, Date.UTC(2026, 2, 28, 5, 30))).toBe(true);
  });
});

describe('the direct message decision', () => {
  const started = at('2026-11-28T12:00', 'UTC');
  const ended = (minutes: number) => started + minutes * 60_000;
  const settings = (change: Partial<NotifySettings> = {}): NotifySettings => ({
    ...DEFAULT_NOTIFY_SETTINGS,
    accounts: {},
    ...change,
  });

  it('sends for work of a minute or more, not for shorter work', () => {
    expect(personalVerdict(settings(), { startedAt: started, endedAt: ended(2) })).toEqual({ send: true });
    expect(personalVerdict(settings(), { startedAt: started, endedAt: ended(0.5) })).toEqual({
      send: false,
      reason: 'short',
    });
  });

  it('sends nothing when turned off', () => {
    expect(personalVerdict(settings({ personal: false }), { startedAt: started, endedAt: ended(5) })).toEqual(
      {
        send: false,
        reason: 'off',
      },
    );
  });

  it('holds back in quiet hours, except a failure when failures break through', () => {
    const lunch = quiet('12:00-13:00', 'UTC');
    const work = { startedAt: started, endedAt: ended(10) };
    expect(personalVerdict(settings({ quiet: lunch }), { ...work, outcome: 'success' }).send).toBe(false);
    expect(personalVerdict(settings({ quiet: lunch }), { ...work, outcome: 'failure' }).send).toBe(false);
    const breaking = settings({ quiet: lunch, breakThrough: true });
    expect(personalVerdict(breaking, { ...work, outcome: 'failure' }).send).toBe(true);
    expect(personalVerdict(breaking, { ...work, outcome: 'success' }).send).toBe(false);
    // Positive control: the same success after the quiet hours is sent.
    expect(personalVerdict(breaking, { ...work, endedAt: ended(90), outcome: 'success' }).send).toBe(true);
  });

  it('goes to the preferred platform when Deckhand knows the account there', () => {
    const starter = { platform: 'chat-a', workspace: 'W', id: 'A1', name: 'ada' };
    const other = { platform: 'chat-b', workspace: 'B', id: '42', name: 'ada' };
    expect(directRecipient(settings({ via: 'chat-b', accounts: { 'chat-b': other } }), starter)).toEqual(
      other,
    );
    expect(directRecipient(settings({ via: 'chat-b' }), starter)).toEqual(starter);
    expect(directRecipient(settings(), starter)).toEqual(starter);
  });
});
