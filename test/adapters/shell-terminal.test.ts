/**
 * The interactive terminal chat as a person sees it: one prompt after each reply; a hidden form
 * question that the one-time secret page answered is closed, so the next line is a command again;
 * `as <user>` runs a line with that user's rights; `press <card> <label>` presses a button by label.
 */
import { describe, expect, it } from 'vitest';
import type { SecretForms } from '../../src/web/secret-flow';
import { accountChat } from '../../src/wiring/accounts';
import { startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';
import { plain, startTerminalChat } from '../support/terminal-chat';

let t: TestApp;

useStarted(
  () => startTestApp({ ADMINS: 'shell:tester', TOOL_MAINTAINERS: 'mytool=shell:mara' }),
  (started) => {
    t = started;
  },
);

const terminal = () => startTerminalChat(t);

describe('the interactive terminal chat', () => {
  it('shows one prompt after a reply, not one per printed message plus one', async () => {
    const term = terminal();
    await term.type('/whoami', 'Deckhand terminal chat.');
    await term.see(/card \d+[\s\S]*deckhand> /);
    await term.type('/timezone', 'deckhand> ');
    await term.see(/card \d+[\s\S]*deckhand> /);
    expect(plain(term.output.text)).not.toMatch(/deckhand> *deckhand> /);
    expect(term.since().match(/deckhand> /g)).toHaveLength(1);
    await term.end();
  }, 60_000);

  it('closes the hidden question once the secret page stored the value; the next line is a command', async () => {
    const term = terminal();
    await term.type('/link media', 'Deckhand terminal chat.');
    await term.see(/API key \[hidden\]: /);
    const id = /\/secrets\/([A-Za-z0-9_-]+)/.exec(term.since())?.[1] as string;
    const forms = t.app.accounts.services.secretForms as SecretForms;
    const session = await forms.load(id);
    if (!session || session === 'unreadable') throw new Error('no secret form');
    const apiKey = t.app.emulators.media?.apiKey as string;
    const outcome = await forms.submit(
      id,
      { apiKey, csrf: session.csrf },
      { cookie: session.csrf, origin: undefined },
      accountChat(t.app),
    );
    expect(outcome.kind).toBe('saved');
    await term.type('/link calendar', 'this form is closed');
    // The line opened the calendar form: it was not taken for the media key.
    await term.see(/Calendar account[\s\S]*Username: /);
    const owner = { platform: 'shell' as const, workspace: 'local', id: 'tester' };
    const stored = await t.app.accounts.services.credentials.media(owner);
    expect(stored).toMatchObject({ origin: 'user', apiKey });
    await term.type('/cancel', '');
    await term.end();
  }, 60_000);

  it('runs a line as another user with that user’s rights: refused, then allowed as a maintainer', async () => {
    const term = terminal();
    await term.type('as ada /jobs restart mytool web', 'Deckhand terminal chat.');
    await term.see(/Only maintainers of mytool can do that\./);
    expect(term.since()).toContain('mytool=shell:ada');
    await term.type('as mara /jobs restart mytool web', 'deckhand> ');
    await term.see(/card \d+[\s\S]*deckhand> /);
    expect(term.since()).not.toContain('Only maintainers');
    await term.end();
  }, 60_000);

  it('presses a button by its card and label, and says which labels a card has when none matches', async () => {
    const term = terminal();
    await term.type('/envvars set mytool SOME_VAR some-value', 'Deckhand terminal chat.');
    await term.type('/envvars delete mytool SOME_VAR', 'Set SOME_VAR');
    await term.see(/card (\d+)[\s\S]*\[\d+\] Cancel[\s\S]*deckhand> /);
    const card = /card (\d+)[^\n]*\n[\s\S]*\[\d+\] Cancel/.exec(term.since())?.[1] as string;
    await term.type(`press ${card} Delete it now`, 'deckhand> ');
    await term.see(/has no button/);
    expect(term.since()).toMatch(
      new RegExp(`Card ${card} has no button “Delete it now” \\(its buttons: .*Cancel`),
    );
    await term.type(`press ${card} cancel`, 'deckhand> ');
    await term.see(/Cancelled; nothing was changed\.[\s\S]*deckhand> /);
    expect(term.since()).not.toContain('has no button');
    await term.end();
  }, 60_000);
});
