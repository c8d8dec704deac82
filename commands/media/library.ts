/** The media library: list, info, check, images, rename, move, clone and search. */
import { z } from 'zod';
import { actionTo, formTarget } from '../../src/core/action-ref';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { translator } from '../../src/i18n/translate';
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
  async run({ args, services, invocation, say = translator('en') }): Promise<DraftCard> {
    const client = await services.media.forUser(invocation.user);
    const list = await client.files.list({
      page: args.page,
      perPage: PER_PAGE,
      ...(args.folder ? { folderId: args.folder } : {}),
    });
    const folder = args.folder;
    const page = say.number(args.page);
    if (list.files.length === 0) {
      return {
        text:
          args.page > 1
            ? folder
              ? say.t('library-no-page-in', page, folder)
              : say.t('media-no-page', page)
            : folder
              ? say.t('library-no-files-in', folder)
              : say.t('library-no-files'),
        status: 'info',
      };
    }
    const nav = (page: number) => ({ ...(folder ? { folder } : {}), page });
    const actions = [
      ...(args.page > 1
        ? [actionTo(mediaListCommand, nav(args.page - 1), { label: say.t('media-previous-page') })]
        : []),
      ...(args.page < list.totalPages
        ? [actionTo(mediaListCommand, nav(args.page + 1), { label: say.t('media-next-page') })]
        : []),
    ];
    return {
      title: folder ? say.t('library-title-in', folder) : say.t('library-title'),
      status: 'info',
      code: { text: fileRows(list.files) },
      footer: say.t(
        'library-footer',
        page,
        say.number(list.totalPages),
        list.resultsTotal,
        say.number(list.resultsTotal),
      ),
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
  async run({ args, services, invocation, say = translator('en') }) {
    const client = await services.media.forUser(invocation.user);
    const file = await client.files.info(args.code);
    return fileInfoCard(file, await linksFor(client, file.fileCode), say);
  },
});

/** `/media check <code>`. */
export const mediaCheckCommand = command({
  name: 'media check',
  args: codeArgs,
  positional: ['code'],
  examples: ['/media check 98zukoh5jqiw'],
  permission: 'read',
  async run({ args, services, invocation, say = translator('en') }) {
    const client = await services.media.forUser(invocation.user);
    const check = await client.files.check(args.code);
    const active = check.status.toLowerCase() === 'active';
    return {
      text: say.t('library-check', check.fileCode, check.status),
      status: active ? 'success' : 'warning',
    };
  },
});

/** `/media images <code>`. */
export const mediaImagesCommand = command({
  name: 'media images',
  args: codeArgs,
  positional: ['code'],
  examples: ['/media images 98zukoh5jqiw'],
  permission: 'read',
  async run({ args, services, invocation, say = translator('en') }) {
    const client = await services.media.forUser(invocation.user);
    const images = await client.files.images(args.code);
    const entries = [
      [say.t('library-image-splash'), images.splashImage],
      [say.t('library-image-single'), images.singleImage],
      [say.t('library-image-thumbnail'), images.thumbImage],
    ].filter(([, url]) => url) as [string, string][];
    return {
      title: say.t('library-images-title', images.title || images.fileCode),
      status: 'info',
      text:
        entries.length > 0
          ? say.t('library-images', entries.length, say.number(entries.length))
          : say.t('library-images-none'),
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
  async run({ args, services, invocation, openForm, say = translator('en'), sayPrivately = say }) {
    if (!args.title) {
      const opened = await openForm({
        ...formTarget(mediaRenameCommand, { code: args.code }),
        title: sayPrivately.t('library-rename-form-title', args.code),
        fields: [
          {
            name: 'title',
            label: sayPrivately.t('library-rename-form-label'),
            placeholder: sayPrivately.t('library-rename-form-placeholder'),
          },
        ],
        submitLabel: sayPrivately.t('media-button-rename'),
      });
      if (opened) return undefined;
      throw UsageError.inWords((say) => ({ message: say.t('library-rename-give-title') }), {
        usage: '/media rename <code> <title>',
      });
    }
    const client = await services.media.forUser(invocation.user);
    await client.files.rename(args.code, args.title);
    return { text: say.t('library-renamed', args.code, args.title), status: 'success' };
  },
});

/** `/media move <code> [folder]` (buttons for the folders when the folder is left out). */
export const mediaMoveCommand = command({
  ...mediaMoveSignature,
  positional: ['code', 'folder'],
  examples: ['/media move 98zukoh5jqiw 101', '/media move 98zukoh5jqiw'],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en') }): Promise<DraftCard> {
    const client = await services.media.forUser(invocation.user);
    if (args.folder === undefined) {
      await client.files.info(args.code);
      const { folders } = await client.folders.list('0', { onlyFolders: true });
      return {
        title: say.t('library-move-title', args.code),
        status: 'info',
        text: folders.length ? say.t('library-move-choose') : say.t('library-move-no-folders'),
        actions: [
          actionTo(
            mediaMoveCommand,
            { code: args.code, folder: '0' },
            { label: say.t('library-move-top-level') },
          ),
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
    return {
      text:
        args.folder === '0'
          ? say.t('library-moved-top', args.code)
          : say.t('library-moved', args.code, args.folder),
      status: 'success',
    };
  },
});

/** `/media clone <code> [--folder ID]`. */
export const mediaCloneCommand = command({
  name: 'media clone',
  args: z.object({ code: fileCode, folder: folderId.optional() }),
  positional: ['code'],
  examples: ['/media clone 98zukoh5jqiw --folder 101'],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en') }) {
    const client = await services.media.forUser(invocation.user);
    const copy = await client.files.clone(args.code, args.folder);
    const links = linksOf(copy.fileCode, copy.downloadUrl);
    return {
      title: say.t('library-copied', args.code),
      status: 'success',
      fields: [
        { label: say.t('media-field-file-code'), value: copy.fileCode, inline: true },
        ...linkFields(links, say),
      ],
      actions: fileActions(copy.fileCode, say),
    };
  },
});

/** `/media search <term…>`. */
export const mediaSearchCommand = command({
  name: 'media search',
  args: z.object({ term: words('opt-term', 100) }),
  positional: ['term'],
  examples: ['/media search trailer'],
  permission: 'read',
  async run({ args, services, invocation, say = translator('en') }) {
    const client = await services.media.forUser(invocation.user);
    const found = await client.files.search(args.term);
    if (found.length === 0) return { text: say.t('library-search-none', args.term), status: 'info' };
    return {
      title: say.t('library-search-title', args.term),
      status: 'info',
      code: { text: fileRows(found.slice(0, 50)) },
      footer:
        found.length > 50
          ? say.t('library-search-first', say.number(50), say.number(found.length))
          : say.t('library-search-found', found.length, say.number(found.length)),
    };
  },
});
