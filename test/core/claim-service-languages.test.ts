/**
 * The failure announcement's I'm on it button and a service's name in the reader's language:
 * German and Hebrew from the catalogs, English as before.
 */
import { describe, expect, it } from 'vitest';
import { announcement } from '../../commands/toolhost/announce';
import type { WatchEvent } from '../../src/core/watch';
import { translator } from '../../src/i18n/translate';
import { serviceName } from '../../src/services/service-names';

const failed: WatchEvent = {
  tool: 'mytool',
  kind: 'job',
  id: 'web',
  from: 'running',
  to: 'failed',
  at: Date.now(),
  detail: '',
  outcome: 'failure',
  terminal: true,
  claim: { scope: { tool: 'mytool', job: 'web' }, everyOutcome: true },
};
const show = { label: 'Show', command: 'jobs show', args: {} };

describe("a failure announcement's I'm on it button", () => {
  it('is in the language of the announcement', () => {
    const german = announcement(failed, 'job', show, [], { say: translator('de') });
    expect(german.actions?.at(-1)?.label).toBe('Ich kümmere mich');
    const hebrew = announcement(failed, 'job', show, [], { say: translator('he') });
    expect(hebrew.actions?.at(-1)?.label).toBe('אני מטפל/ת בזה');
    expect(announcement(failed, 'job', show).actions?.at(-1)?.label).toBe("I'm on it");
  });
});

describe("a service's name", () => {
  it('is English for logs, and in the language of a translator', () => {
    expect(serviceName('calendar')).toBe('the calendar');
    expect(serviceName('other')).toBe('the other');
    expect(serviceName('calendar', translator('de'))).toBe('der Kalender');
    expect(serviceName('calendar', translator('he'))).toBe('היומן');
    expect(serviceName('other', translator('he'))).toBe('other');
  });
});
