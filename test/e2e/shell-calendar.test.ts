/**
 * The calendar in `deckhand shell --sandbox`, typed line by line as a user would: create an event,
 * find it, cancel it by the id its card shows (after confirming), and fill in /event new's form
 * from `--answers` (a script's next line is the next command, never a form's answer).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_CALENDAR_USERS } from '@deckhand/sandbox/calendar';
import { describe, expect, it } from 'vitest';
import { shellEnv } from '../support/cli';
import { waitFor } from '../support/wait';

const ROOT = join(import.meta.dirname, '..', '..');

/** The answers of `/event new`'s form, as a script gives them. */
const FORM_ANSWERS = {
  title: 'Script social',
  start: '2026-12-20 18:00',
  venue: 'Community Room',
  description: 'Made by a script',
};

/** A running `deckhand shell --sandbox` whose input stays open. */
function startShell(): { child: ChildProcessWithoutNullStreams; out: () => string; dataDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-cal-'));
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'deckhand.mjs'),
      'shell',
      '--sandbox',
      '--wait',
      '5',
      '--answers',
      JSON.stringify(FORM_ANSWERS),
    ],
    {
      cwd: ROOT,
      env: { ...shellEnv(dataDir), LOG_LEVEL: 'debug' },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  return { child, out: () => stdout, dataDir };
}

describe('the calendar in deckhand shell --sandbox', () => {
  it('creates “Hack night” with its link, lists it, cancels it by id after confirmation, and fills a form', async () => {
    const shell = startShell();
    let mark = 0;
    /** Types a line and waits for `expected` in what is printed after it. */
    const type = async (line: string, expected: RegExp) => {
      mark = shell.out().length;
      shell.child.stdin.write(`${line}\n`);
      return waitFor(() => expected.exec(shell.out().slice(mark)), 15_000);
    };

    const created = await type(
      '/event create "Hack night" --start "2026-12-01 18:00" --end "2026-12-01 21:00" --venue "Main Hall"',
      /\[done\] Hack night[\s\S]*Open: (http:\/\/127\.0\.0\.1:\d+\/event\/hack-night\/)[\s\S]*event #(\d+)/,
    );
    const id = created[2] as string;
    expect(shell.out().slice(mark)).toMatch(/When\s+Tue 1 Dec 2026, 18:00–21:00 \(Europe\/Berlin\)/);
    expect(shell.out().slice(mark)).toMatch(/Venue\s+Main Hall, Hauptstraße 1, Berlin/);

    await type('/events --search hack', new RegExp(`Hack night · Main Hall · #${id}`));
    const ask = await type(`/event cancel ${id}`, /Please confirm[\s\S]*\[(\d+)\] Confirm/);
    await type(ask[1] as string, /Cancelled: “Hack night” is in the trash\./);
    await type('/events --search hack', /No events match\./);
    await type(`/event show ${id}`, new RegExp(`Event ${id} is in the trash\\.`));

    mark = shell.out().length;
    shell.child.stdin.write('/event new\n/events --search social\n');
    await waitFor(
      () =>
        /\[done\] Script social[\s\S]*Community Room, Gartenweg 5[\s\S]*Script social · Community Room/.test(
          shell.out().slice(mark),
        ),
      15_000,
    );
    expect(shell.out().slice(mark)).toContain('Title: Script social');

    shell.child.stdin.end();
    const code = await new Promise<number | null>((resolve) => shell.child.on('exit', resolve));
    expect(code).toBe(0);
    expect(shell.out()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    const log = readFileSync(join(shell.dataDir, 'deckhand.log'), 'utf8');
    expect(log).toContain('"command":"event create"');
    const password = SANDBOX_CALENDAR_USERS.editor.appPassword;
    expect(log).not.toContain(password);
    expect(log).not.toContain(password.replace(/ /g, ''));
    expect(shell.out()).not.toContain(password.replace(/ /g, ''));
  });
});
