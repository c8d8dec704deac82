import { describe, expect, it } from 'vitest';
import type { UsageError } from '../../src/core/errors';
import {
  insideWindow,
  parseFreezeWindow,
  windowEnd,
  windowMinutes,
  windowStart,
  windowText,
} from '../../src/core/freeze-window';
import { translator } from '../../src/i18n/translate';

const at = (iso: string) => Date.parse(iso);

describe('weekly freeze windows', () => {
  it('reads "fri 15:00 - mon 08:00" and full day names, and writes it back the same way', () => {
    const window = parseFreezeWindow('Friday 15:00-monday 8:00', 'Europe/Berlin');
    expect(window).toEqual({
      start: { weekday: 5, minutes: 900 },
      end: { weekday: 1, minutes: 480 },
      zone: 'Europe/Berlin',
    });
    expect(windowText(window)).toBe('fri 15:00 - mon 08:00');
    expect(windowMinutes(window)).toBe(2 * 1440 + 17 * 60);
  });

  it('says what is wrong with a window it cannot read', () => {
    expect(() => parseFreezeWindow('fri 15:00', 'UTC')).toThrow(
      'A freeze window is a start and an end joined by "-".',
    );
    expect(() => parseFreezeWindow('frx 15:00 - mon 08:00', 'UTC')).toThrow(
      '"frx" is not a day of the week.',
    );
    expect(() => parseFreezeWindow('fri 25:00 - mon 08:00', 'UTC')).toThrow('"25:00" is not a time of day.');
    expect(() => parseFreezeWindow('fri - mon 08:00', 'UTC')).toThrow('"fri" should be a day and a time');
    expect(() => parseFreezeWindow('fri 15:00 - fri 15:00', 'UTC')).toThrow('must end at another time');
    expect(() => parseFreezeWindow('fri 15:00 - mon 08:00', 'Mars/Olympus')).toThrow(
      'Mars/Olympus is not a time zone Deckhand knows.',
    );
  });

  it("says it in the reader's language too", () => {
    const inGerman = (text: string, zone = 'UTC') => {
      try {
        parseFreezeWindow(text, zone);
      } catch (error) {
        return (error as UsageError).words?.(translator('de'));
      }
      throw new Error(`expected ${text} to be refused`);
    };
    expect(inGerman('frx 15:00 - mon 08:00')).toEqual({
      message: '„frx“ ist kein Wochentag.',
      hint: 'Nimm mon, tue, wed, thu, fri, sat oder sun (oder den englischen Namen ganz ausgeschrieben).',
    });
    expect(inGerman('fri 25:00 - mon 08:00')?.message).toBe('„25:00“ ist keine Uhrzeit.');
    expect(inGerman('fri 15:00 - fri 15:00')?.message).toBe(
      'Ein Freeze-Zeitfenster muss zu einer anderen Zeit enden, als es anfängt.',
    );
    expect(inGerman('fri 15:00 - mon 08:00', 'Mars/Olympus')?.message).toBe(
      'Mars/Olympus ist keine Zeitzone, die Deckhand kennt.',
    );
  });

  it('wraps over the end of the week', () => {
    const window = parseFreezeWindow('fri 15:00 - mon 08:00', 'UTC');
    expect(insideWindow(window, at('2026-11-27T14:59:00Z'))).toBe(false); // Friday
    expect(insideWindow(window, at('2026-11-27T15:00:00Z'))).toBe(true);
    expect(insideWindow(window, at('2026-11-29T23:00:00Z'))).toBe(true); // Sunday
    expect(insideWindow(window, at('2026-11-30T07:59:00Z'))).toBe(true); // Monday
    expect(insideWindow(window, at('2026-11-30T08:00:00Z'))).toBe(false);
    expect(insideWindow(window, at('2026-12-02T12:00:00Z'))).toBe(false); // Wednesday
  });

  it('keeps its Berlin wall-clock hours across the spring change (29 March 2026, 02:00 → 03:00)', () => {
    const window = parseFreezeWindow('sat 22:00 - sun 04:00', 'Europe/Berlin');
    // Saturday 22:00 CET is 21:00 UTC; Sunday 04:00 CEST is 02:00 UTC: 5 hours, not 6.
    const start = windowStart(window, at('2026-03-28T12:00:00Z'));
    expect(new Date(start).toISOString()).toBe('2026-03-28T21:00:00.000Z');
    const end = windowEnd(window, start);
    expect(new Date(end).toISOString()).toBe('2026-03-29T02:00:00.000Z');
    expect(insideWindow(window, at('2026-03-29T01:59:00Z'))).toBe(true); // 03:59 CEST
    expect(insideWindow(window, at('2026-03-29T02:00:00Z'))).toBe(false); // 04:00 CEST
    // A fixed winter offset (+1) would call 02:30 UTC 03:30 and still frozen.
    expect(insideWindow(window, at('2026-03-29T02:30:00Z'))).toBe(false);
  });

  it('keeps its Berlin wall-clock hours across the autumn change (25 October 2026, 03:00 → 02:00)', () => {
    const window = parseFreezeWindow('mon 00:00 - mon 08:00', 'Europe/Berlin');
    const start = windowStart(window, at('2026-10-24T00:00:00Z'));
    // Monday 26 October 00:00 CET is Sunday 23:00 UTC; before the change it was 22:00 UTC.
    expect(new Date(start).toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(new Date(windowEnd(window, start)).toISOString()).toBe('2026-10-26T07:00:00.000Z');
    expect(insideWindow(window, at('2026-10-26T06:30:00Z'))).toBe(true); // 07:30 CET
    expect(insideWindow(window, at('2026-10-26T07:30:00Z'))).toBe(false); // 08:30 CET
    // The week before, in summer time, the same window ends at 06:00 UTC.
    expect(new Date(windowEnd(window, at('2026-10-19T01:00:00Z'))).toISOString()).toBe(
      '2026-10-19T06:00:00.000Z',
    );
  });

  it('moves a start that falls in the spring gap to the first moment that exists', () => {
    const window = parseFreezeWindow('sun 02:30 - sun 05:00', 'Europe/Berlin');
    const start = windowStart(window, at('2026-03-28T12:00:00Z'));
    expect(new Date(start).toISOString()).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
    expect(insideWindow(window, at('2026-03-29T01:45:00Z'))).toBe(true);
  });
});
