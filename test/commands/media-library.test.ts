import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaSandbox } from '@deckhand/sandbox/media';
import type { MediaAccount } from '@deckhand/sandbox/media/state';
import { describe, expect, it } from 'vitest';
import { pngSize } from '../fakes/png';
import { button, startTestApp, type TestApp } from '../support/app';
import { expectReplies } from '../support/replies';
import { useStarted } from '../support/started';

let t: TestApp;
let sandbox: MediaSandbox;
let account: MediaAccount;

useStarted(
  () => startTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-media-')) }),
  (started) => {
    t = started;
    sandbox = t.app.emulators.media as MediaSandbox;
    // These tests are about the commands; the client's handling of the rate limit has its own tests.
    sandbox.ctx.settings.rateLimitPerSecond = 0;
    account = sandbox.controls.account() as MediaAccount;
  },
);

const codeOf = (title: string) => [...account.files.values()].find((f) => f.title === title)?.code as string;

describe('/media library', () => {
  it('lists the files, newest first, with a page footer', async () => {
    const [card] = await t.say('/media list');
    expect(card?.title).toBe('Media files');
    expect(card?.code?.text).toMatch(/CODE\s+TITLE\s+LENGTH\s+VIEWS\s+UPLOADED/);
    const text = card?.code?.text ?? '';
    expect(text.indexOf('Conference keynote')).toBeLessThan(text.indexOf('Welcome to Deckhand'));
    expect(card?.footer).toMatch(/page 1 of 1 · \d+ files/);
  });

  it('lists one folder, and says so when a page is past the end', async () => {
    const trailers = [...account.folders.values()].find((f) => f.name === 'Trailers')?.id as string;
    const [inFolder] = await t.say(`/media list --folder ${trailers}`);
    expect(inFolder?.code?.text).toContain('Launch trailer');
    expect(inFolder?.code?.text).not.toContain('Conference keynote');
    const [past] = await t.say('/media list --page 9');
    expect(past?.text).toBe('There is no page 9.');
  });

  it('shows a file with its size, views and links, and Rename / Move / Player buttons', async () => {
    const code = codeOf('Launch trailer');
    const [card] = await t.say(`/media info ${code}`);
    expect(card?.title).toBe('Launch trailer');
    const fields = Object.fromEntries((card?.fields ?? []).map((f) => [f.label, f.value]));
    expect(fields).toMatchObject({ 'File code': code, Size: '50.0 MB', Views: '311' });
    expect(fields.Download).toBe(`${sandbox.apiUrl}/d/${code}`);
    expect(fields.Embed).toBe(`${sandbox.apiUrl}/e/${code}`);
    expect(card?.buttons?.map((b) => b.label)).toEqual(['Rename', 'Move to folder', 'Player link']);
  });

  it('shows a file in the conversation’s language, and refuses a bad code in it', async () => {
    await t.say('/language --here de');
    try {
      const code = codeOf('Launch trailer');
      const [card] = await t.say(`/media info ${code}`);
      const fields = Object.fromEntries((card?.fields ?? []).map((f) => [f.label, f.value]));
      expect(fields).toMatchObject({ Dateicode: code, Größe: '50,0 MB', Aufrufe: '311' });
      expect(card?.buttons?.map((b) => b.label)).toEqual([
        'Umbenennen',
        'In Ordner verschieben',
        'Player-Link',
      ]);
      const [bad] = await t.say('/media info not-a-code!');
      expect(bad?.text).toContain('muss ein Dateicode sein');
    } finally {
      await t.say('/language --here default');
    }
  });

  it('answers an unknown file code with a clear message', async () => {
    const [card] = await t.say('/media info zzzzzzzzzzzz');
    expect(card?.status).toBe('danger');
    expect(card?.text).toContain('File zzzzzzzzzzzz was not found in this media account');
    const [bad] = await t.say('/media info not-a-code!');
    expect(bad?.text).toContain('Invalid <code>: must be a file code');
  });

  it('checks a file and shows its images', async () => {
    const code = codeOf('Welcome to Deckhand');
    const [check] = await t.say(`/media check ${code}`);
    expect(check?.text).toBe(`File ${code}: Active.`);
    const [images] = await t.say(`/media images ${code}`);
    expect(images?.links?.map((l) => l.label)).toEqual(['Splash', 'Single', 'Thumbnail']);
    expect(images?.links?.[0]?.url).toBe(`${sandbox.apiUrl}/splash/${code}.jpg`);
    // Each address once: as a button, not again as a field.
    const shown = JSON.stringify(images);
    expect(shown.split(`/splash/${code}.jpg`)).toHaveLength(2);
  });

  it('a DMCA-disabled file says so', async () => {
    const code = codeOf('Reported clip');
    const [card] = await t.say(`/media info ${code}`);
    expect(card?.text).toContain('disabled after a copyright (DMCA) report');
    const [dmca] = await t.say('/media dmca');
    expect(dmca?.code?.text).toContain(code);
  });

  it('renames a file from the command, and from the Rename button through a form', async () => {
    const code = codeOf('Welcome to Deckhand');
    const [done] = await t.say(`/media rename ${code} Welcome aboard`);
    expect(done?.text).toBe(`Renamed ${code} to “Welcome aboard”.`);
    expect(account.files.get(code)?.title).toBe('Welcome aboard');
    const [info] = await t.say(`/media info ${code}`);
    await t.press(button(info, 'Rename'));
    const form = t.transcript.forms.at(-1);
    expect(form?.form.fields.map((f) => f.name)).toEqual(['title']);
    await t.submit(form?.formId as string, { title: 'Welcome to Deckhand' });
    expect(account.files.get(code)?.title).toBe('Welcome to Deckhand');
  });

  it('moves a file with the folder buttons, and refuses an unknown folder', async () => {
    const code = codeOf('Conference keynote');
    const [info] = await t.say(`/media info ${code}`);
    const [choose] = await t.press(button(info, 'Move to folder'));
    expect(choose?.buttons?.map((b) => b.label)).toEqual(['Top level', 'Trailers', 'Talks']);
    const [moved] = await t.press(button(choose, 'Talks'));
    const talks = [...account.folders.values()].find((f) => f.name === 'Talks')?.id;
    expect(moved?.text).toBe(`Moved ${code} to folder ${talks}.`);
    expect(account.files.get(code)?.folderId).toBe(talks);
    const [bad] = await t.say(`/media move ${code} 999999`);
    expect(bad?.text).toContain('That folder was not found');
    expect(account.files.get(code)?.folderId).toBe(talks);
  });

  it('clones a file into a folder', async () => {
    const code = codeOf('Launch trailer');
    const before = account.files.size;
    const [card] = await t.say(`/media clone ${code} --folder 102`);
    const copy = card?.fields?.find((f) => f.label === 'File code')?.value as string;
    expect(copy).not.toBe(code);
    expect(account.files.size).toBe(before + 1);
    expect(account.files.get(copy)).toMatchObject({ title: 'Launch trailer', folderId: '102' });
  });

  it('searches titles', async () => {
    const [card] = await t.say('/media search launch TRAILER');
    expect(card?.code?.text).toContain('Launch trailer');
    const [none] = await t.say('/media search nothing-like-this');
    expect(none?.text).toBe('No file matches “nothing-like-this”.');
  });

  it('creates, renames and lists folders', async () => {
    const [created] = await t.say('/media folder create Conference talks --parent 102');
    const id = /id (\d+)/.exec(created?.text ?? '')?.[1] as string;
    expect(account.folders.get(id)).toMatchObject({ name: 'Conference talks', parentId: '102' });
    await t.say(`/media folder rename ${id} Talks 2026`);
    expect(account.folders.get(id)?.name).toBe('Talks 2026');
    const [list] = await t.say('/media folder list 102');
    expect(list?.code?.text).toMatch(new RegExp(`${id}\\s+Talks 2026`));
    const [missing] = await t.say('/media folder rename 999999 Nope');
    expect(missing?.text).toContain('That folder was not found');
  });

  it('shows the account, and refuses it to a non-admin', async () => {
    const [card] = await t.say('/media account');
    const fields = Object.fromEntries((card?.fields ?? []).map((f) => [f.label, f.value]));
    expect(fields).toMatchObject({ 'E-mail': 'sandbox@example.org', Balance: '$1.25000' });
    const [denied] = await t.say('/media account', { user: 'UNOBODY' });
    expect(denied?.text).toContain('Only Deckhand admins can do that.');
  });

  it('builds a player link with a poster and subtitles, checked before anything is asked', async () => {
    const code = codeOf('Launch trailer');
    const [card] = await t.say(
      `/media player ${code} --poster https://img.example.org/p.jpg --sub https://s.example.org/en.vtt --label English --sub https://s.example.org/de.srt --label Deutsch`,
    );
    const url = new URL(card?.fields?.[0]?.value as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${sandbox.apiUrl}/e/${code}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      c_poster: 'https://img.example.org/p.jpg',
      c1_file: 'https://s.example.org/en.vtt',
      c1_label: 'English',
      c2_file: 'https://s.example.org/de.srt',
      c2_label: 'Deutsch',
    });
    expect(card?.links).toEqual([{ label: 'Open player', url: url.toString() }]);
    const [json] = await t.say(`/media player ${code} --subtitles-json https://s.example.org/subs.json`);
    expect(new URL(json?.fields?.[0]?.value as string).searchParams.get('subtitle_json')).toBe(
      'https://s.example.org/subs.json',
    );
    const [pairs] = await t.say(`/media player ${code} --sub https://s.example.org/en.vtt`);
    expect(pairs?.text).toContain('Give one --label per --sub (got 1 --sub and 0 --label).');
    const [ext] = await t.say(`/media player ${code} --sub https://s.example.org/en.txt --label English`);
    expect(ext?.text).toContain('Subtitle 1 must be a .srt or .vtt file');
    const [poster] = await t.say(`/media player ${code} --poster javascript:alert(1)`);
    expect(poster?.text).toContain('The poster must be an http(s) address');
    const [info] = await t.say(`/media info ${code}`);
    const [plain] = await t.press(button(info, 'Player link'));
    expect(plain?.fields?.[0]?.value).toBe(`${sandbox.apiUrl}/e/${code}`);
  });

  it('shows stats as a chart and a table, and checks the range', async () => {
    const [week] = await t.say('/media stats');
    // The chart is a picture; its text form (one bar per day) is the fallback shown where none can be.
    expect(week?.image?.fallback?.split('\n').filter((l) => /^\d\d-\d\d /.test(l))).toHaveLength(7);
    expect(pngSize(Buffer.from(week?.image?.pngBase64 ?? '', 'base64'))).toEqual({ width: 800, height: 400 });
    expect(week?.code?.text).toMatch(/DAY\s+VIEWS\s+DOWNLOADS\s+EARNINGS/);
    await expectReplies(t, [
      ['/media stats --from 2026-01-01 --to 2026-01-03', { title: 'Media stats 2026-01-01 – 2026-01-03' }],
      ['/media stats --days 3 --from 2026-01-01 --to 2026-01-03', 'either --days or --from and --to'],
      ['/media stats --from 2026-01-01', '--from and --to go together'],
      ['/media stats --from 2026-02-30 --to 2026-03-01', 'Invalid --from'],
    ]);
  });
});
