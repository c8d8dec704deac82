/** `/media player <code> [--poster URL] [--sub URL --label L]... [--subtitles-json URL]`. */
import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import { translator } from '../../src/i18n/translate';
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
  async run({ args, services, invocation, say = translator('en') }) {
    if (args.sub.length !== args.label.length) {
      const subs = args.sub.length;
      const labels = args.label.length;
      throw UsageError.inWords((say) => ({
        message: say.t('player-labels-per-sub', subs, labels),
        hint: say.t('player-labels-example'),
      }));
    }
    const subtitles: Subtitle[] = args.sub.map((url, i) => ({ url, label: args.label[i] as string }));
    const options = { poster: args.poster, subtitles, subtitlesJson: args.subtitlesJson };
    // The options are checked before anything is asked of the host.
    playerUrl('https://player.invalid', args.code, options);
    const client = await services.media.forUser(invocation.user);
    const file = await client.files.info(args.code);
    const host = await client.playerHost();
    if (!host)
      throw UsageError.inWords((say) => ({
        message: say.t('player-host-unknown'),
        hint: say.t('player-host-unknown-hint'),
      }));
    const url = playerUrl(host, file.fileCode, options);
    return {
      title: say.t('player-link-title', file.title || file.fileCode),
      status: 'success',
      fields: [{ label: say.t('player-field'), value: url, url }],
      links: [{ label: say.t('player-open'), url }],
    };
  },
});
