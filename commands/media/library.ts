/** The media library: list, info, check, images, rename, move, clone and search. */
import { z } from 'zod';
import { actionTo, formTarget } from '../../src/core/action-ref';
import { UsageError } from '../../src/core/errors';
import { plural } from '../../src/core/plural';
import type { DraftCard } from '../../src/core/reply';
import type { FileListItem, MediaClient } from '../../src/services/media';
import { linksOf } from '../../src/services/media/links';
import { table } from '../format';
import { fileActions, fileInfoCard, linkFields } from './cards';
import { command } from './context';
import { fileCode, folderId, formatLength, words } from './format';
import { mediaMoveSignature, mediaRenameSignature } from './signatures';

const PER_PAGE = 20;

/** Rows of a file table. */
function fileRows(files: readonly FileListItem[]): string {
  return table([
    ['CODE', 'TITLE', 'LENGTH', 'VIEWS', 'UPLOADED'],
    ...files.map((f) => [
      f.fileCode,
      f.title.length > 40 ? `${f.title.slice(0, 37)}...` : f.title,
      formatLength(f.length),
      String(f.views),
      f.uploaded.slice(0, 16),
    ]),
  ]);
}

/** The links of a file, from the player host. */
async function linksFor(client: MediaClient, code: string) {
  const host = await client.playerHost();
  return host ? linksOf(code, `${host}/d/${code}`) : undefined;
}

/** `/media list [--folder ID] [--page N]`. */
export const mediaListCommand = command({
  name: 'media list',
  args: z.object({
    folder: folderId.optional(),
    page: z.number().int().min(1).max(100_000).default(1).describe('opt-page-media-list'),
  }),
  examples: ['/media list', '/media list --folder 101 --page 2'],
  permission: 'read',
  async run({ args, services, invocation }): Promise<DraftCard> {
    const client = await services.media.forUser(invocation.user);
    const list = await client.files.list({
      page: args.page,
      perPage: PER_PAGE,
      ...(args.folder ? { folderId: args.folder } : {}),
    });
    const where = args.folder ? ` in folder ${args.folder}` : '';
    if (list.files.length === 0) {
      return {
        text: args.page > 1 ? `There is no page ${args.page}${where}.` : `No files${where}.`,
        status: 'info',
      };
    }
    const nav = (page: number) => ({ ...(args.folder ? { folder: args.folder } : {}), page });
    const actions = [
      ...(args.page > 1 ? [actionTo(mediaListCommand, nav(args.page - 1), { label: 'Previous page' })] : []),
      ...(args.page < list.totalPages
        ? [actionTo(mediaListCommand, nav(args.page + 1), { label: 'Next page' })]
        : []),
    ];
    return {
      title: `Media files${where}`,
      status: 'info',
      code: { text: fileRows(list.files) },
      footer: `page ${args.page} of ${list.totalPages} · ${list.resultsTotal} files`,
      ...(actions.length ? { actions } : {}),
    };
  },
});

const codeArgs = z.object({ code: fileCode });

/** `/media info <code>`. */
export const mediaInfoCommand = command({
  name: 'media info',
  args: codeArgs,
  positional: ['code'],
  examples: ['/media info 98zukoh5jqiw'],
  permission: 'read',
  async run({ args, services, invocation }) {
    const client = await services.media.forUser(invocation.user);
    const file = await client.files.info(args.code);
    return fileInfoCard(file, await linksFor(client, file.fileCode));
  },
});

/** `/media check <code>`. */
export const mediaCheckCommand = command({
  name: 'media check',
  args: codeArgs,
  positional: ['code'],
  examples: ['/media check 98zukoh5jqiw'],
  permission: 'read',
  async run({ args, services, invocation }) {
    const client = await services.media.forUser(invocation.user);
    const check = await client.files.check(args.code);
    const active = check.status.toLowerCase() === 'active';
    return { text: `File ${check.fileCode}: ${check.status}.`, status: active ? 'success' : 'warning' };
  },
});

/** `/media images <code>`. */
export const mediaImagesCommand = command({
  name: 'media images',
  args: codeArgs,
  positional: ['code'],
  examples: ['/media images 98zukoh5jqiw'],
  permission: 'read',
  async run({ args, services, invocation }) {
    const client = await services.media.forUser(invocation.user);
    const images = await client.files.images(args.code);
    const entries = [
      ['Splash', images.splashImage],
      ['Single', images.singleImage],
      ['Thumbnail', images.thumbImage],
    ].filter(([, url]) => url) as [string, string][];
    return {
      title: `Images of ${images.title || images.fileCode}`,
      status: 'info',
      text:
        entries.length > 0
          ? `${plural(entries.length, 'image')}: open them with the buttons.`
          : 'This file has no images yet.',
      links: entries.map(([label, url]) => ({ label, url })),
    };
  },
});

/** `/media rename <code> <title…>` (a form asks for the title when it is left out). */
export const mediaRenameCommand = command({
  ...mediaRenameSignature,
  positional: ['code', 'title'],
  examples: ['/media rename 98zukoh5jqiw Launch trailer (final)'],
  permission: 'write',
  async run({ args, services, invocation, openForm }) {
    if (!args.title) {
      const opened = await openForm({
        ...formTarget(mediaRenameCommand, { code: args.code }),
        title: `Rename ${args.code}`,
        fields: [{ name: 'title', label: 'New title', placeholder: 'Launch trailer (final)' }],
        submitLabel: 'Rename',
      });
      if (opened) return undefined;
      throw new UsageError('Give the new title.', { usage: '/media rename <code> <title>' });
    }
    const client = await services.media.forUser(invocation.user);
    await client.files.rename(args.code, args.title);
    return { text: `Renamed ${args.code} to “${args.title}”.`, status: 'success' };
  },
});

/** `/media move <code> [folder]` (buttons for the folders when the folder is left out). */
export const mediaMoveCommand = command({
  ...mediaMoveSignature,
  positional: ['code', 'folder'],
  examples: ['/media move 98zukoh5jqiw 101', '/media move 98zukoh5jqiw'],
  permission: 'write',
  async run({ args, services, invocation }): Promise<DraftCard> {
    const client = await services.media.forUser(invocation.user);
    if (args.folder === undefined) {
      await client.files.info(args.code);
      const { folders } = await client.folders.list('0', { onlyFolders: true });
      return {
        title: `Move ${args.code} to…`,
        status: 'info',
        text: folders.length ? 'Choose a folder.' : 'There are no folders yet: /media folder create <name>.',
        actions: [
          actionTo(mediaMoveCommand, { code: args.code, folder: '0' }, { label: 'Top level' }),
          ...folders
            .slice(0, 20)
            .map((f) =>
              actionTo(
                mediaMoveCommand,
                { code: args.code, folder: f.folderId },
                { label: f.name.slice(0, 40) },
              ),
            ),
        ],
      };
    }
    await client.files.move(args.code, args.folder);
    const where = args.folder === '0' ? 'the top level' : `folder ${args.folder}`;
    return { text: `Moved ${args.code} to ${where}.`, status: 'success' };
  },
});

/** `/media clone <code> [--folder ID]`. */
export const mediaCloneCommand = command({
  name: 'media clone',
  args: z.object({ code: fileCode, folder: folderId.optional() }),
  positional: ['code'],
  examples: ['/media clone 98zukoh5jqiw --folder 101'],
  permission: 'write',
  async run({ args, services, invocation }) {
    const client = await services.media.forUser(invocation.user);
    const copy = await client.files.clone(args.code, args.folder);
    const links = linksOf(copy.fileCode, copy.downloadUrl);
    return {
      title: `Copied ${args.code}`,
      status: 'success',
      fields: [{ label: 'File code', value: copy.fileCode, inline: true }, ...linkFields(links)],
      actions: fileActions(copy.fileCode),
    };
  },
});

/** `/media search <term…>`. */
export const mediaSearchCommand = command({
  name: 'media search',
  args: z.object({ term: words('search term', 100) }),
  positional: ['term'],
  examples: ['/media search trailer'],
  permission: 'read',
  async run({ args, services, invocation }) {
    const client = await services.media.forUser(invocation.user);
    const found = await client.files.search(args.term);
    if (found.length === 0) return { text: `No file matches “${args.term}”.`, status: 'info' };
    return {
      title: `Files matching “${args.term}”`,
      status: 'info',
      code: { text: fileRows(found.slice(0, 50)) },
      footer: found.length > 50 ? `first 50 of ${found.length}` : `${found.length} found`,
    };
  },
});
