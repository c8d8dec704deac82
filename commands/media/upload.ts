/**
 * `/media upload` (files attached to the command, or sent to the bot with it), `/media upload-url`
 * (a remote upload followed to its end) and `/media uploads` (the transfer queue and its actions).
 */
import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import type { AnyCommand } from '../../src/core/command';
import { UsageError } from '../../src/core/errors';
import type { FilesDeclaration } from '../../src/core/files';
import { PLAIN_WORDS } from '../../src/core/platform-words';
import type { DraftCard } from '../../src/core/reply';
import type { MediaClient, RemoteAction } from '../../src/services/media';
import { table } from '../format';
import { mediaUploadView, uploadStartCard } from './cards';
import { command } from './context';
import { folderId, formatBytes, percent, webUrl } from './format';
import { mediaUploadsSignature, type UPLOADS_ACTIONS } from './signatures';

/** Most files one `/media upload` takes. */
const MAX_FILES = 10;

const title = z
  .string()
  .min(1)
  .max(255, 'must be at most 255 characters')
  .refine((s) => !/[\r\n]/.test(s), 'must be one line')
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
    async run({ args, invocation, services, reply, here = PLAIN_WORDS }) {
      const files = invocation.files ?? [];
      if (files.length === 0)
        throw new UsageError('There is no file to upload.', {
          hint: here.attachHint('media upload'),
        });
      if (files.length > MAX_FILES) throw new UsageError(`At most ${MAX_FILES} files at a time, please.`);
      if (args.title && files.length > 1) {
        throw new UsageError('--title names one file: send the files one at a time to give each a title.');
      }
      const client = await services.media.forUser(invocation.user);
      // A wrong folder is refused before any byte moves.
      if (args.folder && args.folder !== '0') await client.folders.list(args.folder, { onlyFolders: true });
      for (const file of files) {
        const handle = await reply(uploadStartCard(file.name, file.size, true));
        if (!handle) throw new Error('the conversation returned no message handle for the progress card');
        await services.uploads.upload({
          user: invocation.user,
          handle,
          file,
          ...(args.folder ? { folderId: args.folder } : {}),
          ...(args.title ? { title: args.title } : {}),
        });
      }
      return undefined;
    },
  }),
  { files: { description: 'the file to upload', required: true } satisfies FilesDeclaration },
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
  async run({ args, invocation, services, reply }) {
    const client = await services.media.forUser(invocation.user);
    const added = await client.remote.add(args.url, {
      ...(args.folder ? { folderId: args.folder } : {}),
      ...(args.title ? { title: args.title } : {}),
    });
    const handle = await reply(mediaUploadView.remoteProgress(args.url, added.fileCode, undefined));
    if (handle) {
      await services.uploads.followRemote({
        user: invocation.user,
        handle,
        fileCode: added.fileCode,
        url: args.url,
      });
    }
    return undefined;
  },
});

/** The transfer queue as a card. */
async function queueCard(client: MediaClient): Promise<DraftCard> {
  const [transfers, slots] = await Promise.all([client.remote.list(), client.remote.slots()]);
  const rows = transfers.map((t) => [
    t.fileCode,
    t.status,
    t.status === 'working'
      ? `${formatBytes(t.bytesDownloaded)}${percent(t.bytesDownloaded, t.bytesTotal) ? ` (${percent(t.bytesDownloaded, t.bytesTotal)})` : ''}`
      : '',
    t.remoteUrl.length > 60 ? `${t.remoteUrl.slice(0, 57)}...` : t.remoteUrl,
  ]);
  const errors = transfers.filter((t) => t.status === 'error').length;
  const card: DraftCard = {
    title: 'Remote uploads',
    status: 'info',
    text: transfers.length === 0 ? 'The transfer queue is empty.' : `${transfers.length} in the queue.`,
    fields: [
      { label: 'Slots used', value: `${slots.used} of ${slots.total}`, inline: true },
      { label: 'Errors', value: String(errors), inline: true },
    ],
    ...(rows.length ? { code: { text: table([['CODE', 'STATUS', 'PROGRESS', 'SOURCE'], ...rows]) } } : {}),
    ...(errors > 0
      ? {
          actions: [
            actionTo(mediaUploadsCommand, { action: 'retry-errors' }, { label: 'Retry errors' }),
            actionTo(mediaUploadsCommand, { action: 'clear-errors' }, { label: 'Clear errors' }),
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
    throw new UsageError(`/media uploads ${args.action} takes no file code.`, {
      hint: 'Only delete names a transfer: /media uploads delete <code>.',
    });
  }
  if (args.action === 'delete' && !args.code) {
    throw new UsageError('Name the transfer to delete: /media uploads delete <code>.', {
      hint: '/media uploads lists the transfers and their codes.',
    });
  }
}

/** `/media uploads [retry-errors|clear-errors|clear-all|delete <code>]`. */
export const mediaUploadsCommand = command({
  ...mediaUploadsSignature,
  positional: ['action', 'code'],
  examples: ['/media uploads', '/media uploads retry-errors', '/media uploads delete 98zukoh5jqiw'],
  permission: 'write',
  confirmWhen: (args) => args.action === 'clear-all' || args.action === 'delete',
  confirm: (args) =>
    args.action === 'clear-all'
      ? 'Remove every transfer from the queue, including those still running?'
      : `Remove transfer ${args.code} from the queue? A running transfer stops.`,
  async resolve({ args }) {
    checkUploadsArgs(args);
    return { label: args.action === 'clear-all' ? 'The transfer queue' : `Transfer ${args.code}`, args };
  },
  async run({ args, invocation, services }): Promise<DraftCard> {
    checkUploadsArgs(args);
    const client = await services.media.forUser(invocation.user);
    if (args.action === 'list') return { ...(await queueCard(client)), audit: 'unchanged' };
    const actions: Record<Exclude<(typeof UPLOADS_ACTIONS)[number], 'list'>, RemoteAction> = {
      'retry-errors': { kind: 'restart-errors' },
      'clear-errors': { kind: 'clear-errors' },
      'clear-all': { kind: 'clear-all' },
      delete: { kind: 'delete', fileCode: args.code as string },
    };
    const action = actions[args.action];
    const said = await client.remote.action(action);
    return { text: `The media host says: ${said}.`, status: 'success' };
  },
});
