/**
 * A remote upload someone started from chat (`/media upload-url`) ends: they get one direct message,
 * delivered by the same path as deployments'. In this app every piece of work counts as long
 * (`NOTIFY_AFTER_SECONDS=0`), since the sandbox's uploads take seconds; the minimum itself is tested
 * with deployments (personal-notify.test.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaSandbox } from '@deckhand/sandbox/media';
import { describe, expect, it } from 'vitest';
import type { ChatUser } from '../../src/core/command';
import type { Card } from '../../src/core/reply';
import { settled, startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let t: TestApp;
let sandbox: MediaSandbox;
const posts: { conversationId: string; card: Card }[] = [];
const opened: ChatUser[] = [];

useStarted(
  () =>
    startTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-dm-upload-')), NOTIFY_AFTER_SECONDS: '0' }),
  (started) => {
    t = started;
    sandbox = t.app.emulators.media as MediaSandbox;
    sandbox.ctx.settings.rateLimitPerSecond = 0;
    let counter = 0;
    t.app.messengers.register('slack', {
      async post(conversationId, card) {
        posts.push({ conversationId, card });
        counter += 1;
        return { platform: 'slack', conversationId, ref: { ts: `m${counter}` } };
      },
      async update() {},
      async openDirect(user) {
        opened.push(user);
        return `slack:${user.workspace}:D-${user.id}`;
      },
    });
  },
);

describe('a direct message when an upload ends', () => {
  it('goes to whoever started it, once; none once they turned them off', async () => {
    const size = 256 * 1024;
    const url = `${sandbox.apiUrl}/samples/talk.mp4?size=${size}&rate=${size}`;
    const [card] = await t.say(`/media upload-url ${url}`, { user: 'UADMIN' });
    expect(card?.title).toBe('Remote upload');
    await waitFor(() => posts.some((p) => p.conversationId === 'slack:T1:D-UADMIN'), 30_000);
    await settled(t.app);
    const dms = posts.filter((p) => p.conversationId.includes(':D-'));
    expect(dms.map((d) => d.conversationId)).toEqual(['slack:T1:D-UADMIN']);
    expect(dms[0]?.card.title).toMatch(/^Upload of .* finished$/);
    expect(dms[0]?.card.text).toContain('Work you started ended');
    // Positive control above; now the same flow after they turned direct messages off.
    await t.say('/notify me off', { user: 'UADMIN', private: true });
    await t.say(`/media upload-url ${url}&again=1`, { user: 'UADMIN' });
    await settled(t.app);
    expect(opened.map((u) => u.id)).toEqual(['UADMIN']);
  }, 60_000);
});
