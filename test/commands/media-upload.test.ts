import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { type MediaSandbox, sampleSha256, sampleStream } from '@deckhand/sandbox/media';
import type { MediaAccount } from '@deckhand/sandbox/media/state';
import { describe, expect, it } from 'vitest';
import type { CardSurface } from '../../src/core/card-surface';
import type { Invocation } from '../../src/core/command';
import type { IncomingFile } from '../../src/core/files';
import type { Card } from '../../src/core/reply';
import { button, startTestApp, type TestApp } from '../support/app';
import { invocationAt } from '../support/invocation';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let t: TestApp;
let sandbox: MediaSandbox;
let account: MediaAccount;
let counter = 0;

useStarted(
  () => startTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-media-')), UPLOAD_EDIT_MS: '100' }),
  (started) => {
    t = started;
    sandbox = t.app.emulators.media as MediaSandbox;
    // These tests are about the commands; the client's handling of the rate limit has its own tests.
    sandbox.ctx.settings.rateLimitPerSecond = 0;
    account = sandbox.controls.account() as MediaAccount;
  },
);

/** Runs a command with files attached, as an adapter would; returns the cards posted in reply. */
async function sendWithFiles(text: string, files: IncomingFile[], user = 'UADMIN'): Promise<Card[]> {
  const out: Card[] = [];
  const invocation: Invocation = {
    ...invocationAt({ platform: 'slack', workspace: 'T1', channel: 'D1', private: true }, user),
    files,
  };
  const surface: CardSurface = {
    async reply(card) {
      out.push(card);
      t.transcript.posted.push(card);
      counter += 1;
      return { platform: 'slack', conversationId: 'slack:T1:D1', ref: { ts: `u${counter}` } };
    },
    async update(handle, card) {
      t.transcript.updates.push({ handle, card });
    },
  };
  await t.app.runner.handleText(text, invocation, surface);
  return out;
}

/** Edits of the card posted with ref `ts`. */
const editsOf = (ts: string) => t.transcript.updates.filter((u) => u.handle.ref.ts === ts).map((u) => u.card);
const lastTs = () => `u${counter}`;
const fieldsOf = (card: Card | undefined) =>
  Object.fromEntries((card?.fields ?? []).map((f) => [f.label, f.value]));
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('/media upload', () => {
  it('asks for a file when none is attached', async () => {
    const [card] = await sendWithFiles('/media upload', []);
    expect(card?.status).toBe('warning');
    expect(card?.text).toContain('There is no file to upload.');
    // The way of the platform the command came from (Slack here), not every platform's.
    expect(card?.text).toContain(
      'Share the file with Deckhand in a direct message with the text `media upload`.',
    );
    expect(card?.text).not.toContain('Telegram');
  });

  it('streams a file here when it cannot be reopened elsewhere, with progress edits and a final card', async () => {
    const size = 3 * 1024 * 1024;
    const file: IncomingFile = {
      name: 'holiday.mp4',
      size,
      mimeType: 'video/mp4',
      open: async () => sampleStream(size, { seed: 'holiday', bytesPerSecond: 6 * 1024 * 1024 }),
    };
    const [start] = await sendWithFiles('/media upload --title "Holiday 2026"', [file]);
    expect(start?.title).toBe('Uploading holiday.mp4');
    const edits = editsOf(lastTs());
    const progress = edits.filter((c) => c.status === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]?.text).toMatch(/^[\d.]+ (KB|MB) of 3\.0 MB \(\d+%\) · [\d.]+ (KB|MB)\/s$/);
    const done = edits.at(-1);
    expect(done?.status).toBe('success');
    expect(done?.title).toBe('Uploaded Holiday 2026');
    const fields = fieldsOf(done);
    const code = fields['File code'] as string;
    expect(fields.Size).toBe('3.0 MB');
    expect(fields.Download).toBe(`${sandbox.apiUrl}/d/${code}`);
    expect(fields.Embed).toBe(`${sandbox.apiUrl}/e/${code}`);
    expect(done?.buttons?.map((b) => b.label)).toEqual(['Rename', 'Move to folder', 'Player link']);
    const stored = account.files.get(code);
    expect(stored?.title).toBe('Holiday 2026');
    expect(sha(stored?.path as string)).toBe(sampleSha256(size, 'holiday'));
  });

  it('queues a file the adapter can reopen: the command only accepts it, a worker moves the bytes', async () => {
    const size = 1024 * 1024 + 17;
    let release: () => void = () => {};
    const opened = new Promise<void>((resolve) => {
      release = resolve;
    });
    const opens: string[] = [];
    t.app.files.register('slack', async (locator) => {
      opens.push(String(locator.fileId));
      await opened;
      return sampleStream(size, { seed: String(locator.fileId) });
    });
    const file: IncomingFile = {
      name: 'notes.bin',
      size,
      open: async () => {
        throw new Error('the receiving process must not download a queued file');
      },
      locator: { platform: 'slack', fileId: 'F123' },
    };
    const before = account.files.size;
    const [start] = await sendWithFiles('/media upload --folder 102', [file]);
    const ts = lastTs();
    expect(start?.text).toBe('1.0 MB · queued');
    expect(account.files.size).toBe(before);
    release();
    const done = await waitFor(() => editsOf(ts).find((c) => c.status === 'success'));
    const code = fieldsOf(done)['File code'] as string;
    expect(opens).toEqual(['F123']);
    expect(account.files.get(code)?.folderId).toBe('102');
    expect(sha(account.files.get(code)?.path as string)).toBe(sampleSha256(size, 'F123'));
  });

  it('refuses an unknown folder before any byte moves', async () => {
    let openedIt = false;
    const file: IncomingFile = {
      name: 'x.bin',
      size: 10,
      open: async () => {
        openedIt = true;
        return Readable.from([Buffer.from('0123456789')]);
      },
    };
    const before = account.files.size;
    const [card] = await sendWithFiles('/media upload --folder 424242', [file]);
    expect(card?.text).toContain('That folder was not found');
    expect(openedIt).toBe(false);
    expect(account.files.size).toBe(before);
  });

  it('a platform download that breaks off fails the card with a clear message and stores nothing', async () => {
    const file: IncomingFile = {
      name: 'broken.bin',
      open: async () =>
        Readable.from(
          (async function* () {
            yield Buffer.alloc(300_000, 1);
            throw new Error('socket hang up');
          })(),
        ),
    };
    const before = account.files.size;
    await sendWithFiles('/media upload', [file]);
    const failed = editsOf(lastTs()).at(-1);
    expect(failed?.title).toBe('Upload of broken.bin failed');
    expect(failed?.text).toContain('The download of broken.bin from the chat platform broke off');
    expect(account.files.size).toBe(before);
  });

  it('only admins may upload with the bot-wide account', async () => {
    const [card] = await sendWithFiles(
      '/media upload',
      [{ name: 'a', open: async () => Readable.from([]) }],
      'UMAINT',
    );
    expect(card?.text).toContain('Only Deckhand admins can do that.');
  });
});

describe('/media upload-url and /media uploads', () => {
  it('follows a remote upload to completion, updating one card', async () => {
    const size = 2 * 1024 * 1024;
    // 4 s of transfer, so the follow sees it in progress even when a busy machine stretches its polls.
    const url = `${sandbox.apiUrl}/samples/talk.mp4?size=${size}&rate=${size / 4}`;
    const [card] = await t.say(`/media upload-url ${url} --title "The talk" --folder 101`);
    const ts = t.transcript.posted.length;
    expect(card?.title).toBe('Remote upload');
    expect(fieldsOf(card).Status).toBe('pending');
    const code = fieldsOf(card)['File code'] as string;
    const done = await waitFor(() =>
      t.transcript.updates.find((u) => u.card.status === 'success' && fieldsOf(u.card)['File code'] === code),
    );
    const edits = t.transcript.updates
      .filter((u) => u.handle.ref.ts === done.handle.ref.ts)
      .map((u) => u.card);
    expect(edits.some((c) => /^Transferring: .* of 2\.0 MB \(\d+%\)$/.test(c.text ?? ''))).toBe(true);
    expect(done.card.title).toBe('Uploaded The talk');
    expect(fieldsOf(done.card).Download).toBe(`${sandbox.apiUrl}/d/${code}`);
    expect(account.files.get(code)).toMatchObject({ title: 'The talk', folderId: '101', size });
    expect(account.files.get(code)?.sha256).toBe(sampleSha256(size, 'talk.mp4'));
    expect(ts).toBeGreaterThan(0);
  });

  it('ends with a failure card when the host cannot fetch the URL, and can retry or clear it', async () => {
    const url = `${sandbox.apiUrl}/samples/missing.mp4`;
    const [card] = await t.say(`/media upload-url ${url}`);
    const code = fieldsOf(card)['File code'] as string;
    const failed = await waitFor(() =>
      t.transcript.updates.find(
        (u) => u.card.title === 'Remote upload failed' && fieldsOf(u.card)['File code'] === code,
      ),
    );
    expect(failed.card.text).toBe('The media host could not fetch the file from that URL.');
    const [queue] = await t.say('/media uploads');
    expect(queue?.code?.text).toMatch(new RegExp(`${code}\\s+error`));
    expect(fieldsOf(queue).Errors).toBe('1');
    const [retried] = await t.press(button(queue, 'Retry errors'));
    expect(retried?.text).toBe('The media host says: Errors restarted.');
    await waitFor(() => account.remote.get(code)?.status === 'error');
    const [cleared] = await t.say('/media uploads clear-errors');
    expect(cleared?.text).toBe('The media host says: Errors cleared.');
    expect(account.remote.has(code)).toBe(false);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const [bad] = await t.say('/media upload-url ftp://example.org/a.mp4');
    expect(bad?.text).toContain('Invalid <url>: must be an http(s) URL');
    const url = `${sandbox.apiUrl}/samples/slow.mp4?size=5000000&rate=100000`;
    await t.say(`/media upload-url ${url}`);
    const queued = account.remote.size;
    const [again] = await t.say(`/media upload-url ${url}`);
    expect(again?.text).toBe(
      'The media host said: URL already in queue.\nNothing was changed. /deckhand help media upload-url shows what it takes.',
    );
    expect(account.remote.size).toBe(queued);
    const [noCode] = await t.say('/media uploads delete');
    expect(noCode?.text).toContain('Name the transfer to delete');
    const [extra] = await t.say('/media uploads clear-all abcdefabcdef');
    expect(extra?.text).toContain('takes no file code');
  });

  it('deletes a transfer and clears the queue only after a confirmation', async () => {
    const code = [...account.remote.values()].find((j) => j.url.includes('slow.mp4'))?.code as string;
    const [ask] = await t.say(`/media uploads delete ${code}`);
    expect(ask?.title).toBe('Please confirm');
    expect(account.remote.has(code)).toBe(true);
    const [deleted] = await t.press(button(ask, 'Confirm'));
    expect(deleted?.text).toBe('The media host says: Transfer deleted.');
    expect(account.remote.has(code)).toBe(false);
    const follow = await waitFor(() =>
      t.transcript.updates.find(
        (u) => u.card.title === 'Remote upload failed' && fieldsOf(u.card)['File code'] === code,
      ),
    );
    expect(follow.card.text).toContain('left the queue without a file');
    await t.say(`/media upload-url ${sandbox.apiUrl}/samples/slow.mp4?size=5000000&rate=100000&kept=1`);
    const [askAll] = await t.say('/media uploads clear-all');
    const queuedBefore = account.remote.size;
    expect(queuedBefore).toBeGreaterThan(0);
    const [kept] = await t.press(button(askAll, 'Cancel'));
    expect(kept?.text).toBe('Cancelled; nothing was changed.');
    expect(account.remote.size).toBe(queuedBefore);
    const [askAgain] = await t.say('/media uploads clear-all');
    const [all] = await t.press(button(askAgain, 'Confirm'));
    expect(all?.text).toBe('The media host says: All transfers cleared.');
    const [empty] = await t.say('/media uploads');
    expect(empty?.text).toBe('The transfer queue is empty.');
    expect(fieldsOf(empty)['Slots used']).toBe('0 of 100');
  });
});
