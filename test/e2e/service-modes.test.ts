/**
 * One rule for real or emulated services (src/wiring/service-modes.ts): a service is real when its URL is
 * set, emulated otherwise in sandbox mode. `npm start -- --sandbox` with `CALENDAR_URL` set says at
 * start-up which services are real, sends calendar commands to that URL, and keeps the tool platform
 * on its emulator.
 */

import { type CalendarSandbox, startCalendarSandbox } from '@deckhand/sandbox/calendar';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { describeServiceModes, serviceModes } from '../../src/wiring/service-modes';
import { messages, runShellScript } from '../support/cli';
import { useStarted } from '../support/started';

describe('serviceModes', () => {
  it('each service is real when its URL is set, emulated otherwise in sandbox mode', () => {
    const none = loadConfig({});
    expect(serviceModes(none, true)).toEqual({
      toolhost: 'emulator',
      calendar: 'emulator',
      media: 'emulator',
      sourcehost: 'emulator',
      phabricator: 'emulator',
    });
    const calendar = loadConfig({ CALENDAR_URL: 'https://events.example.org/wp-json' });
    expect(serviceModes(calendar, true)).toEqual({
      toolhost: 'emulator',
      calendar: 'real',
      media: 'emulator',
      sourcehost: 'emulator',
      phabricator: 'emulator',
    });
    const platform = loadConfig({
      TOOLHOST_URL: 'https://api.svc.toolforge.org',
      MEDIA_API_URL: 'https://m.example',
    });
    expect(serviceModes(platform, true)).toMatchObject({
      toolhost: 'real',
      media: 'real',
      calendar: 'emulator',
    });
    expect(Object.values(serviceModes(platform, false))).toEqual(['real', 'real', 'real', 'real', 'real']);
  });

  it('describes the mix in one line', () => {
    expect(
      describeServiceModes({
        toolhost: 'emulator',
        calendar: 'real',
        media: 'emulator',
        sourcehost: 'emulator',
        phabricator: 'emulator',
      }),
    ).toBe(
      'Services: calendar (CALENDAR_URL) real; tool platform, media host, source host, Phabricator emulated (sandbox).',
    );
  });
});

describe('npm start -- --sandbox with CALENDAR_URL', () => {
  let site: CalendarSandbox;
  useStarted(startCalendarSandbox, (started) => {
    site = started;
  });

  it('says which services are real, reads events from that site and deploys on the emulated platform', async () => {
    // A mark only the configured site can produce: it is down, where the embedded emulator would answer.
    site.controls.setDown(true);
    const run = await runShellScript('/events\n/deploy mytool\n', {
      argv: ['start', '--sandbox', '--wait', '60'],
      env: { CALENDAR_URL: site.restRoot },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'Services: calendar (CALENDAR_URL) real; tool platform, media host, source host, Phabricator emulated (sandbox).',
    );
    const events = messages(run.stdout)[0] ?? '';
    expect(events).not.toContain('Upcoming events');
    expect(events).toMatch(/calendar/i);
    expect(events).toMatch(/\[failed\] The calendar/);
    const last = messages(run.stdout).at(-1) ?? '';
    expect(last).toContain('[done] Deploy mytool');
  });
});
