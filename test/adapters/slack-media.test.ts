import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaSandbox } from '@deckhand/sandbox/media';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { waitFor } from '../support/wait';

let bot: SlackBot;
const dm = `D${USERS.admin.id.slice(1)}`;

beforeAll(async () => {
  bot = await startSlackBot({
    env: { DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-slack-media-')), UPLOAD_EDIT_MS: '100' },
  });
});
afterAll(async () => {
  await bot?.close();
});
afterEach(() => {
  expect(bot.fake.violations).toEqual([]);
});

/** What the user sees of a message: its rendered blocks as text. */
const seen = (message: { attachments?: unknown }) => JSON.stringify(message.attachments ?? '');

describe('Slack → media host', () => {
  it('streams a file shared in the DM with "media upload" to the media host, on the upload queue', async () => {
    const content = randomBytes(256 * 1024 + 3);
    const file = bot.fake.hostFile('clip.mp4', content, 'video/mp4');
    await bot.driver.event(
      bot.driver.eventBody({
        type: 'message',
        subtype: 'file_share',
        channel: dm,
        channel_type: 'im',
        user: USERS.admin.id,
        text: 'media upload',
        ts: '1700000100.000100',
        files: [file],
      }),
    );
    const card = await waitFor(
      () => bot.fake.channelMessages(dm).find((m) => seen(m).includes('Uploaded clip')),
      15_000,
    );
    const code = /"file ([a-z0-9]{12})"/.exec(seen(card))?.[1] as string;
    const sandbox = bot.app.emulators.media as MediaSandbox;
    expect(seen(card)).toContain(`${sandbox.apiUrl}/d/${code}`);
    expect(seen(card)).toContain(`${sandbox.apiUrl}/e/${code}`);
    for (const label of ['Rename', 'Move to folder', 'Player link']) expect(seen(card)).toContain(label);
    expect(card.versions.length).toBeGreaterThan(1);
    expect(seen({ attachments: card.versions[0]?.attachments })).toContain('Uploading clip.mp4');
    const stored = sandbox.controls.file(code);
    expect(stored?.size).toBe(content.length);
    expect(
      createHash('sha256')
        .update(readFileSync(stored?.path as string))
        .digest('hex'),
    ).toBe(createHash('sha256').update(content).digest('hex'));
    const jobs = await waitFor(async () => {
      const completed = await bot.app.queues.upload.getJobs(['completed']);
      return completed.some((j) => j.name === 'file' && j.returnvalue === code) ? completed : undefined;
    });
    expect(JSON.stringify(jobs.map((j) => j.data))).not.toContain(bot.fake.options.botToken);
  });
});
