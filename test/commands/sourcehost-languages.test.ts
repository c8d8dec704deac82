/**
 * The source-host and account commands in their readers' languages: what is posted in a conversation
 * (a migration's card, its announcement made later by the queue, its errors) in the conversation's,
 * what only the reader sees (/unlink, /whoami) in the reader's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { linkDirectly, slackUser } from '../support/oauth-web';
import { waitFor } from '../support/wait';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await linkDirectly(t.app, slackUser('UMONA'), 'mona', ['read:user', 'repo', 'admin:org']);
  await t.say('/language --here de', { user: 'UMONA' });
});
afterAll(async () => {
  await t.close();
});

describe('source-host and account commands in the reader’s language', () => {
  it('a migration started in a German conversation is shown, followed and announced in German', async () => {
    const [started] = await t.say('/source migration start toolforge-repos mytool --lock', { user: 'UMONA' });
    expect(started?.fields).toContainEqual({ label: 'Optionen', value: 'gesperrt', inline: true });
    const id = String(started?.title).split(' ')[1] as string;
    const announced = await waitFor(
      () => t.transcript.posted.find((c) => c.title === `Migration ${id} exportiert`),
      15_000,
    );
    expect(announced.text).toContain('Der Export von toolforge-repos (toolforge-repos/mytool) ist fertig.');
    expect(announced.buttons?.map((b) => b.label)).toEqual(['Archiv-Link']);
    const [none] = await t.say('/source migration show toolforge-repos 999999', { user: 'UMONA' });
    expect(none?.text).toMatch(
      /^Es gibt keine Migration 999999 von toolforge-repos, die dein Konto sehen kann\.\nListe sie mit \/(deckhand )?source migration list toolforge-repos auf\.$/,
    );
  });

  it('what only the reader sees is in their own language, even in a German conversation', async () => {
    await t.say('/language he', { user: 'UMONA', private: true });
    const [nothing] = await t.say('/unlink media', { user: 'UMONA', private: true });
    expect(nothing?.text).toBe('אין מה להסיר: לא שמור אצלכם חשבון מדיה.');
    const [who] = await t.say('/whoami', { user: 'UMONA' });
    expect(who?.title).toBe('מי אתם בעיני Deckhand');
    expect(who?.fields?.[0]?.label).toBe('אתם');
  });
});
