/** `/media player <code> [--poster URL] [--sub URL --label L]... [--subtitles-json URL]`. */
import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import { playerUrl, type Subtitle } from '../../src/services/media';
import { command } from './context';
import { fileCode } from './format';

/** `/media player`: the embed link with a poster and subtitles. */
export const mediaPlayerCommand = command({
  name: 'media player',
  args: z.object({
    code: fileCode,
    poster: z.string().optional().describe('opt-poster'),
    sub: z.array(z.string()).default([]).describe('opt-sub'),
    label: z.array(z.string()).default([]).describe('opt-label'),
    subtitlesJson: z.string().optional().describe('opt-subtitles-json'),
  }),
  positional: ['code'],
  examples: [
    '/media player 98zukoh5jqiw',
    '/media player 98zukoh5jqiw --poster https://example.org/poster.jpg --sub https://example.org/en.vtt --label English',
  ],
  permission: 'read',
  async run({ args, services, invocation }) {
    if (args.sub.length !== args.label.length) {
      throw new UsageError(
        `Give one --label per --sub (got ${args.sub.length} --sub and ${args.label.length} --label).`,
        {
          hint: 'Example: --sub https://example.org/en.vtt --label English --sub https://example.org/de.vtt --label Deutsch',
        },
      );
    }
    const subtitles: Subtitle[] = args.sub.map((url, i) => ({ url, label: args.label[i] as string }));
    const options = { poster: args.poster, subtitles, subtitlesJson: args.subtitlesJson };
    // The options are checked before anything is asked of the host.
    playerUrl('https://player.invalid', args.code, options);
    const client = await services.media.forUser(invocation.user);
    const file = await client.files.info(args.code);
    const host = await client.playerHost();
    if (!host) throw new UsageError('The player host is not known yet.', { hint: 'Set MEDIA_PLAYER_URL.' });
    const url = playerUrl(host, file.fileCode, options);
    return {
      title: `Player link of ${file.title || file.fileCode}`,
      status: 'success',
      fields: [{ label: 'Player', value: url, url }],
      links: [{ label: 'Open player', url }],
    };
  },
});
