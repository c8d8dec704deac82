/**
 * `/media upload` (files attached to the command, or sent to the bot with it), `/media upload-url`
 * (a remote upload followed to its end) and `/media uploads` (the transfer queue and its actions).
 */
import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import type { AnyCommand } from '../../src/core/command';
import { UsageError } from '../../src/core/errors';
import type { FilesDeclaration } from '../../src/core/files';
import { replyLanguage } from '../../src/core/languages';
import { PLAIN_WORDS } from '../../src/core/platform-words';
import type { DraftCard } from '../../src/core/reply';
import { type Translator, t, translator } from '../../src/i18n/translate';
import type { MediaClient, RemoteAction } from '../../src/services/media';
import { table } from '../format';
import { uploadStartCard, uploadView } from './cards';
import { command } from './context';
import { folderId, formatBytes, percent, webUrl } from './format';
import { mediaUploadsSignature, type UPLOADS_ACTIONS } from './signatures';

/** Most files one `/media upload` takes. */
const MAX_FILES = 10;

const title = z
  .string()
  .min(1)
  .max(255, t('en', 'media-too-long', 255))
  .refine((s) => !/[\r\n]/.test(s), t('en', 'media-one-line'))
  .describe('opt-title-media-upload');

/** `/media upload [--folder ID] [--title T]` with one or more files. */
export const mediaUploadCommand = Object.assign(
  command({
    name: 'media upload',
    args: z.object({ folder: folderId.optional(), title: title.optional() }),
    examples: [
      '/media upload   (with a file attached)',
      '/media upload --folder 101 --title "Launch trailer"',
      '/media upload --file ./trailer.mp4   (terminal)',
    ],
    permission: 'write',
    async run({ args, invocation, services, reply, here = PLAIN_WORDS, say = translator('en') }) {
      const files = invocation.files ?? [];
      if (files.length === 0) {
        throw UsageError.inWords((reader) => ({
          message: reader.t('upload-no-file'),
          hint: here.attachHint('media upload', reader),
        }));
      }
      if (files.length > MAX_FILES)
        throw UsageError.inWords((say) => ({ message: say.t('upload-too-many', MAX_FILES) }));
      if (args.title && files.length > 1) {
        throw UsageError.inWords((say) => ({ message: say.t('upload-title-one-file') }));
      }
      const client = await services.media.forUser(invocation.user);
      // A wrong folder is refused before any byte moves.
      if (args.folder && args.folder !== '0') await client.folders.list(args.folder, { onlyFolders: true });
      for (const file of files) {
        const handle = await reply(uploadStartCard(file.name, file.size, true, say));
        if (!handle) throw new Error('the conversation returned no message handle for the progress card');
        await services.uploads.upload({
          user: invocation.user,
          handle,
          file,
          ...(args.folder ? { folderId: args.folder } : {}),
          ...(args.title ? { title: args.title } : {}),
          // The progress card's edits are written in the language of this first card.
          language: say.language,
        });
      }
      return undefined;
    },
  }),
  { files: { description: 'file-media-upload', required: true } satisfies FilesDeclaration },
) as AnyCommand;

/** `/media upload-url <url> [--folder ID] [--title T]`. */
export const mediaUploadUrlCommand = command({
  name: 'media upload-url',
  args: z.object({
    url: webUrl('https://example.org/video.mp4').describe('opt-url'),
    folder: folderId.optional(),
    title: title.optional(),
  }),
  positional: ['url'],
  examples: ['/media upload-url https://example.org/video.mp4 --title "Demo"'],
  permission: 'write',
  async run({ args, invocation, services, reply, say = translator('en') }) {
    const client = await services.media.forUser(invocation.user);
    const added = await client.remote.add(args.url, {
      ...(args.folder ? { folderId: args.folder } : {}),
      ...(args.title ? { title: args.title } : {}),
    });
    const handle = await reply(uploadView(say).remoteProgress(args.url, added.fileCode, undefined));
    if (handle) {
      await services.uploads.followRemote({
        user: invocation.user,
        handle,
        fileCode: added.fileCode,
        url: args.url,
        language: say.language,
      });
    }
    return undefined;
  },
});

/** The transfer queue as a card. */
async function queueCard(client: MediaClient, say: Translator): Promise<DraftCard> {
  const [transfers, slots] = await Promise.all([client.remote.list(), client.remote.slots()]);
  const rows = transfers.map((t) => [
    t.fileCode,
    t.status,
    t.status === 'working'
      ? `${formatBytes(t.bytesDownloaded, say)}${percent(t.bytesDownloaded, t.bytesTotal) ? ` (${percent(t.bytesDownloaded, t.bytesTotal)})` : ''}`
      : '',
    t.remoteUrl.length > 60 ? `${t.remoteUrl.slice(0, 57)}...` : t.remoteUrl,
  ]);
  const errors = transfers.filter((t) => t.status === 'error').length;
  const card: DraftCard = {
    title: say.t('upload-queue-title'),
    status: 'info',
    text:
      transfers.length === 0
        ? say.t('upload-queue-empty')
        : say.t('upload-queue-count', transfers.length, say.number(transfers.length)),
    fields: [
      {
        label: say.t('upload-queue-slots'),
        value: say.t('upload-queue-slots-used', say.number(slots.used), say.number(slots.total)),
        inline: true,
      },
      { label: say.t('upload-queue-errors'), value: say.number(errors), inline: true },
    ],
    ...(rows.length ? { code: { text: table([['CODE', 'STATUS', 'PROGRESS', 'SOURCE'], ...rows]) } } : {}),
    ...(errors > 0
      ? {
          actions: [
            actionTo(
              mediaUploadsCommand,
              { action: 'retry-errors' },
              { label: say.t('upload-retry-errors') },
            ),
            actionTo(
              mediaUploadsCommand,
              { action: 'clear-errors' },
              { label: say.t('upload-clear-errors') },
            ),
          ],
        }
      : {}),
  };
  return card;
}

/** Refuses a file code where none belongs, and a delete without one. */
function checkUploadsArgs(args: {
  action: (typeof UPLOADS_ACTIONS)[number];
  code?: string | undefined;
}): void {
  if (args.action !== 'delete' && args.code) {
    const action = args.action;
    throw UsageError.inWords((say) => ({
      message: say.t('upload-takes-no-code', action),
      hint: say.t('upload-takes-no-code-hint'),
    }));
  }
  if (args.action === 'delete' && !args.code) {
    throw UsageError.inWords((say) => ({
      message: say.t('upload-delete-which'),
      hint: say.t('upload-delete-which-hint'),
    }));
  }
}

/** `/media uploads [retry-errors|clear-errors|clear-all|delete <code>]`. */
export const mediaUploadsCommand = command({
  ...mediaUploadsSignature,
  positional: ['action', 'code'],
  examples: ['/media uploads', '/media uploads retry-errors', '/media uploads delete 98zukoh5jqiw'],
  permission: 'write',
  confirmWhen: (args) => args.action === 'clear-all' || args.action === 'delete',
  confirm: (args, _target, say = translator('en')) =>
    args.action === 'clear-all'
      ? say.t('upload-confirm-clear-all')
      : say.t('upload-confirm-delete', args.code ?? ''),
  async resolve({ args, invocation }) {
    checkUploadsArgs(args);
    const say = translator(replyLanguage(invocation));
    return {
      label:
        args.action === 'clear-all'
          ? say.t('upload-target-queue')
          : say.t('upload-target-transfer', args.code ?? ''),
      args,
    };
  },
  async run({ args, invocation, services, say = translator('en') }): Promise<DraftCard> {
    checkUploadsArgs(args);
    const client = await services.media.forUser(invocation.user);
    if (args.action === 'list') return { ...(await queueCard(client, say)), audit: 'unchanged' };
    const actions: Record<Exclude<(typeof UPLOADS_ACTIONS)[number], 'list'>, RemoteAction> = {
      'retry-errors': { kind: 'restart-errors' },
      'clear-errors': { kind: 'clear-errors' },
      'clear-all': { kind: 'clear-all' },
      delete: { kind: 'delete', fileCode: args.code as string },
    };
    const action = actions[args.action];
    const said = await client.remote.action(action);
    return { text: say.t('upload-host-says', said), status: 'success' };
  },
});
