/**
 * A remote upload's card in the conversation's language: the first card and the edits the upload
 * queue makes to it (here, the failure and its reason) are written in the same language, even when
 * the conversation's setting changes meanwhile.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaSandbox } from '@deckhand/sandbox/media';
import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let t: TestApp;
let sandbox: MediaSandbox;

useStarted(
  () => startTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-media-')), UPLOAD_EDIT_MS: '100' }),
  (started) => {
    t = started;
    sandbox = t.app.emulators.media as MediaSandbox;
    sandbox.ctx.settings.rateLimitPerSecond = 0;
  },
);

describe('a remote upload in German', () => {
  it('draws its first card and its failure in the language of the first card', async () => {
    await t.say('/language --here de');
    const [card] = await t.say(`/media upload-url ${sandbox.apiUrl}/samples/missing.mp4`);
    expect(card?.title).toBe('Hochladen von einer URL');
    const ref = String(t.transcript.posted.indexOf(card as never) + 1);
    await t.say('/language --here default');
    const failed = await waitFor(
      () => t.transcript.updates.find((u) => u.handle.ref.ts === ref && u.card.status === 'danger'),
      20_000,
    );
    expect(failed.card.title).toBe('Hochladen von der URL fehlgeschlagen');
    expect(failed.card.text).toBe('Der Medien-Host konnte die Datei nicht von dieser URL abrufen.');
  });
});
