/** Media folders: create, rename, list. */
import { z } from 'zod';
import { translator } from '../../src/i18n/translate';
import { table } from '../format';
import { command } from './context';
import { folderId, words } from './format';

/** `/media folder create <name…> [--parent ID]`. */
export const mediaFolderCreateCommand = command({
  name: 'media folder create',
  args: z.object({ name: words('opt-name-media-folder-create', 255), parent: folderId.optional() }),
  positional: ['name'],
  examples: ['/media folder create Trailers', '/media folder create 2026 --parent 101'],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en') }) {
    const client = await services.media.forUser(invocation.user);
    const id = await client.folders.create(args.name, args.parent);
    return {
      text: say.t('folder-created', args.name, id),
      status: 'success',
    };
  },
});

/** `/media folder rename <id> <name…>`. */
export const mediaFolderRenameCommand = command({
  name: 'media folder rename',
  args: z.object({ id: folderId, name: words('opt-name-media-folder-rename', 255) }),
  positional: ['id', 'name'],
  examples: ['/media folder rename 101 Old trailers'],
  permission: 'write',
  async run({ args, services, invocation, say = translator('en') }) {
    const client = await services.media.forUser(invocation.user);
    await client.folders.rename(args.id, args.name);
    return { text: say.t('folder-renamed', args.id, args.name), status: 'success' };
  },
});

/** `/media folder list [id]`. */
export const mediaFolderListCommand = command({
  name: 'media folder list',
  args: z.object({ id: folderId.default('0') }),
  positional: ['id'],
  examples: ['/media folder list', '/media folder list 101'],
  permission: 'read',
  async run({ args, services, invocation, say = translator('en') }) {
    const client = await services.media.forUser(invocation.user);
    const { folders } = await client.folders.list(args.id, { onlyFolders: true });
    const top = args.id === '0';
    if (folders.length === 0)
      return { text: top ? say.t('folder-none-top') : say.t('folder-none-in', args.id), status: 'info' };
    return {
      title: top ? say.t('folder-list-top') : say.t('folder-list-in', args.id),
      status: 'info',
      code: { text: table([['ID', 'NAME'], ...folders.map((f) => [f.folderId, f.name])]) },
    };
  },
});
