/**
 * /event new and the Edit button as forms: through the command runner's form store (any platform), and
 * through the terminal (the shell adapter's prompts, typed interactively, secrets not echoed).
 */
import type { CalendarSandbox } from '@deckhand/sandbox/calendar';
import { envvarsOf } from '@deckhand/sandbox/toolhost/envvars';
import { describe, expect, it } from 'vitest';
import { button, startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';
import { startTerminalChat } from '../support/terminal-chat';
import { waitFor } from '../support/wait';

let t: TestApp;
let calendar: CalendarSandbox;

useStarted(
  () => startTestApp({ ADMINS: 'slack:UADMIN,shell:tester' }),
  (started) => {
    t = started;
    calendar = t.app.emulators.calendar as CalendarSandbox;
  },
);

const event = (title: string) => calendar.state.postsOf('event').find((e) => e.title === title);
const lastForm = () => t.transcript.forms.at(-1) as (typeof t.transcript.forms)[number];

describe('/event new as a form', () => {
  it('opens a form for the fields of /event create, with the site’s venues, organizers and categories', async () => {
    const [note] = await t.say('/event new');
    expect(note?.text).toBe('Opened a form for the new event.');
    const { form } = lastForm();
    expect(form.command).toBe('event create');
    expect(form.fields.map((f) => [f.name, f.optional === true])).toEqual([
      ['title', false],
      ['start', false],
      ['end', true],
      ['venue', true],
      ['organizer', true],
      ['category', true],
      ['description', true],
    ]);
    expect(form.intro).toContain('Times are in Europe/Berlin');
    expect(form.intro).toContain('Venues: Community Room, Main Hall, Studio.');
    expect(form.intro).toContain('Organizers: Ada Lovelace, Deckhand Meetup Team.');
    expect(form.intro).toMatch(/Categories: .*Meetup.*Workshop/);
    expect(form.fields.find((f) => f.name === 'venue')?.placeholder).toBe(
      'Community Room, Main Hall, Studio',
    );
  });

  it('creates the event from the answers and posts its card', async () => {
    await t.say('/event new');
    const [card] = await t.submit(lastForm().formId, {
      title: 'Form social',
      start: '2026-12-12 18:00',
      end: '2026-12-12 20:00',
      venue: 'Main Hall',
      organizer: 'Ada Lovelace',
      category: 'Meetup',
      description: 'Made in a form.',
    });
    expect(card?.title).toBe('Form social');
    expect(card?.fields).toEqual(
      expect.arrayContaining([
        { label: 'When', value: 'Sat 12 Dec 2026, 18:00–20:00 (Europe/Berlin)' },
        { label: 'Organizer', value: 'Ada Lovelace' },
      ]),
    );
    expect(event('Form social')).toMatchObject({ venues: [10], description: 'Made in a form.' });
  });

  it('answers a bad date in the form with a clear message and creates nothing', async () => {
    await t.say('/event new');
    const [card] = await t.submit(lastForm().formId, { title: 'Never', start: 'soonish' });
    expect(card?.text).toMatch(/Invalid --start: `soonish` is not a date/);
    expect(event('Never')).toBeUndefined();
  });

  it('Edit on an event card opens a form that changes only what was filled in', async () => {
    const [created] = await t.say(
      '/event create "Edit me" --start "2026-12-13 10:00" --end "2026-12-13 11:00" --venue "Main Hall"',
    );
    const [note] = await t.press(button(created, 'Edit'));
    expect(note?.text).toBe('Opened a form to edit “Edit me”.');
    const { formId, form } = lastForm();
    expect(form.command).toBe('event update');
    expect(form.fields.find((f) => f.name === 'start')?.placeholder).toBe('2026-12-13 10:00');
    const [card] = await t.submit(formId, { title: 'Edited', end: '2026-12-13 12:00' });
    expect(card?.fields?.[0]?.value).toBe('Sun 13 Dec 2026, 10:00–12:00 (Europe/Berlin)');
    expect(event('Edited')?.venues).toEqual([10]);
  });
});

describe('forms in the terminal (shell adapter prompts)', () => {
  it('asks each field on its own line, creates the event, and does not echo a secret', async () => {
    const { output, type, end } = startTerminalChat(t, 120);
    await type('/event new', 'Deckhand terminal chat.');
    await type('Terminal talk', 'Title (e.g. Hack night): ');
    await type('2026-12-14 19:00', 'Starts (e.g. 2026-12-01 18:00): ');
    await type('', 'Ends (default: an hour later) [optional]');
    await type('Community Room', 'Venue [optional]');
    await type('', 'Organizer [optional]');
    await type('Talk', 'Category [optional]');
    await type('', 'Description [optional]');
    await waitFor(
      () => output.text.includes('Terminal talk') && output.text.includes('Community Room, Gartenweg 5'),
    );
    expect(event('Terminal talk')).toMatchObject({ venues: [11] });

    const secret = 'typed-secret-4815162342';
    await type('/envvars set mytool SHELL_SECRET', '');
    await type(secret, 'Value of SHELL_SECRET [hidden]: ');
    await waitFor(() => output.text.includes('Set SHELL_SECRET of mytool (value'));
    const toolhost = t.app.emulators.toolhost?.ctx;
    expect(toolhost && envvarsOf(toolhost, 'mytool').get('SHELL_SECRET')).toBe(secret);
    expect(output.text).not.toContain(secret);

    await type('/event new', '');
    await type('/cancel', 'Title (e.g. Hack night): ');
    await waitFor(() => output.text.includes('The form was cancelled; nothing was done.'));
    await end();
  });
});
