/** Media folders: create, rename, list. */
import { z } from 'zod';
import { table } from '../format';
import { command } from './context';
import { folderId, words } from './format';

/** `/media folder create <name…> [--parent ID]`. */
export const mediaFolderCreateCommand = command({
  name: 'media folder create',
  args: z.object({ name: words('folder name', 255), parent: folderId.optional() }),
  positional: ['name'],
  examples: ['/media folder create Trailers', '/media folder create 2026 --parent 101'],
  permission: 'write',
  async run({ args, services, invocation }) {
    const client = await services.media.forUser(invocation.user);
    const id = await client.folders.create(args.name, args.parent);
    return {
      text: `Created folder “${args.name}” (id ${id}). Move files there with /media move <code> ${id}.`,
      status: 'success',
    };
  },
});

/** `/media folder rename <id> <name…>`. */
export const mediaFolderRenameCommand = command({
  name: 'media folder rename',
  args: z.object({ id: folderId, name: words('new folder name', 255) }),
  positional: ['id', 'name'],
  examples: ['/media folder rename 101 Old trailers'],
  permission: 'write',
  async run({ args, services, invocation }) {
    const client = await services.media.forUser(invocation.user);
    await client.folders.rename(args.id, args.name);
    return { text: `Renamed folder ${args.id} to “${args.name}”.`, status: 'success' };
  },
});

/** `/media folder list [id]`. */
export const mediaFolderListCommand = command({
  name: 'media folder list',
  args: z.object({ id: folderId.default('0') }),
  positional: ['id'],
  examples: ['/media folder list', '/media folder list 101'],
  permission: 'read',
  async run({ args, services, invocation }) {
    const client = await services.media.forUser(invocation.user);
    const { folders } = await client.folders.list(args.id, { onlyFolders: true });
    const where = args.id === '0' ? 'at the top level' : `in folder ${args.id}`;
    if (folders.length === 0) return { text: `No folders ${where}.`, status: 'info' };
    return {
      title: `Folders ${where}`,
      status: 'info',
      code: { text: table([['ID', 'NAME'], ...folders.map((f) => [f.folderId, f.name])]) },
    };
  },
});
