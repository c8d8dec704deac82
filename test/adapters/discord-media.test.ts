import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { MediaSandbox } from '@deckhand/sandbox/media';
import { describe, expect, it } from 'vitest';
import { buildDiscordCommands } from '../../adapters/discord/manifest';
import { slashCommand } from '../fakes/discord';
import { type DiscordHarness, startDiscordHarness } from '../fakes/discord/harness';
import { buttons, debugOnFailure, embedOf } from '../fakes/discord/inspect';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';

let h: DiscordHarness;

useFakePlatform(
  () => startDiscordHarness({ env: { UPLOAD_EDIT_MS: '100' } }),
  (started) => {
    h = started;
  },
);

describe('Discord → media host', () => {
  it('/media upload has a required attachment option', () => {
    const media = buildDiscordCommands(h.app.runner.registry).find((c) => c.name === 'media') as {
      options: { name: string; options?: { name: string; type: number; required?: boolean }[] }[];
    };
    const upload = media.options.find((o) => o.name === 'upload');
    expect(upload?.options?.[0]).toMatchObject({ name: 'file', type: 11, required: true });
  });

  it('streams the file attached to /media upload to the media host, on the upload queue', async () => {
    debugOnFailure(h);
    const content = randomBytes(300_000);
    const url = h.fake.hostFile('trailer.mp4', content);
    h.fake.interact(
      slashCommand(h.place(h.adminId), 'media upload', {
        file: {
          attachment: { filename: 'trailer.mp4', url, size: content.length, contentType: 'video/mp4' },
        },
        title: 'Trailer',
      }),
    );
    const card = await waitFor(
      () => h.fake.channelMessages().find((m) => m.via === 'bot' && embedOf(m).title === 'Uploaded Trailer'),
      15_000,
    );
    const fields = Object.fromEntries((embedOf(card).fields ?? []).map((f) => [f.name, f.value]));
    const code = fields['File code'] as string;
    const sandbox = h.app.emulators.media as MediaSandbox;
    expect(fields.Download).toContain(`${sandbox.apiUrl}/d/${code}`);
    expect(fields.Embed).toContain(`${sandbox.apiUrl}/e/${code}`);
    expect(buttons(card).map((b) => b.label)).toEqual(['Rename', 'Move to folder', 'Player link']);
    const stored = sandbox.controls.file(code);
    expect(stored?.title).toBe('Trailer');
    expect(
      createHash('sha256')
        .update(readFileSync(stored?.path as string))
        .digest('hex'),
    ).toBe(createHash('sha256').update(content).digest('hex'));
    await waitFor(async () =>
      (await h.app.queues.upload.getJobs(['completed'])).find(
        (j) => j.name === 'file' && j.returnvalue === code,
      ),
    );
  });
});
