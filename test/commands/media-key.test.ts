import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { MediaSandbox } from '@deckhand/sandbox/media';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardSurface } from '../../src/core/card-surface';
import type { Card } from '../../src/core/reply';
import { startTestApp, type TestApp } from '../support/app';

const WRONG_KEY = 'not-the-right-key-42';
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-media-')),
    MEDIA_API_KEY: WRONG_KEY,
    UPLOAD_EDIT_MS: '100',
  });
});
afterAll(async () => {
  await t?.close();
});

const everything = () => JSON.stringify([t.transcript.posted, t.transcript.updates]);

describe('a media API key the host refuses', () => {
  it('an upload ends with a clear message naming the key setting, and stores nothing', async () => {
    const sandbox = t.app.emulators.media as MediaSandbox;
    const before = sandbox.controls.account()?.files.size;
    let opened = false;
    const updates: Card[] = [];
    const surface: CardSurface = {
      reply: async () => ({ platform: 'slack', conversationId: 'slack:T1:D1', ref: { ts: 'k1' } }),
      update: async (_h, card) => {
        updates.push(card);
      },
    };
    await t.app.runner.handleText(
      '/media upload',
      {
        user: { platform: 'slack', id: 'UADMIN', name: 'ada', workspace: 'T1' },
        conversation: { platform: 'slack', workspace: 'T1', channel: 'D1' },
        conversationId: 'slack:T1:D1',
        isPrivate: true,
        files: [
          {
            name: 'clip.mp4',
            size: 4,
            open: async () => {
              opened = true;
              return Readable.from([Buffer.from('data')]);
            },
          },
        ],
      },
      surface,
    );
    const last = t.transcript.updates.filter((u) => u.handle.ref.ts === 'k1').at(-1)?.card;
    expect(last?.title).toBe('Upload of clip.mp4 failed');
    expect(last?.status).toBe('danger');
    expect(last?.text).toBe(
      'The media host refused the API key (Invalid key).\nCheck MEDIA_API_KEY: it must be the API key from the media host’s account settings page.',
    );
    expect(opened).toBe(false);
    expect(sandbox.controls.account()?.files.size).toBe(before);
    expect(everything()).not.toContain(WRONG_KEY);
  });

  it('every other media command says the same, and nothing shows the key', async () => {
    const [card] = await t.say('/media list');
    expect(card?.text).toContain('The media host refused the API key (Invalid key).');
    const [remote] = await t.say('/media upload-url https://example.org/a.mp4');
    expect(remote?.text).toContain('The media host refused the API key');
    expect(everything()).not.toContain(WRONG_KEY);
  });
});
