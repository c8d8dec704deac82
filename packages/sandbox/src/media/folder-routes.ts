/** `folder/create|rename|list`. Names are 1–255 characters; an unknown folder id gets 404. */
import { Hono } from 'hono';
import type { MediaEnv, MediaSandboxContext } from './context';
import { fail, ok } from './envelope';
import { type MediaAccount, newCode, type StoredFolder } from './state';
import { listItem } from './views';

/** Creates a folder in an account (used by the route and the seed). */
export function createFolder(account: MediaAccount, name: string, parentId = '0'): StoredFolder {
  const folder = { id: String(account.nextFolderId++), code: newCode().slice(0, 10), name, parentId };
  account.folders.set(folder.id, folder);
  return folder;
}

function badName(name: string | undefined): string | undefined {
  if (!name?.trim()) return 'Missing name';
  if (name.length > 255) return 'Folder name too long (max 255)';
  return undefined;
}

/** The folder routes. */
export function folderRoutes(ctx: MediaSandboxContext): Hono<MediaEnv> {
  const app = new Hono<MediaEnv>();
  app.all('/folder/create', (c) => {
    const account = c.get('account');
    const name = c.req.query('name');
    const parent = c.req.query('parent_id') || '0';
    const problem = badName(name);
    if (problem) return fail(c, 400, problem);
    if (parent !== '0' && !account.folders.has(parent)) return fail(c, 404, 'Parent folder not found');
    return ok(c, { fld_id: createFolder(account, (name as string).trim(), parent).id });
  });
  app.all('/folder/rename', (c) => {
    const account = c.get('account');
    const folder = account.folders.get(c.req.query('fld_id') ?? '');
    const name = c.req.query('name');
    if (!folder) return fail(c, 404, 'Folder not found');
    const problem = badName(name);
    if (problem) return fail(c, 400, problem);
    folder.name = (name as string).trim();
    return ok(c, 'true');
  });
  app.all('/folder/list', (c) => {
    const account = c.get('account');
    const id = c.req.query('fld_id') || '0';
    if (id !== '0' && !account.folders.has(id)) return fail(c, 404, 'Folder not found');
    const onlyFolders = c.req.query('only_folders') === '1';
    const folders = [...account.folders.values()]
      .filter((f) => f.parentId === id)
      .map((f) => ({ name: f.name, code: f.code, fld_id: f.id }));
    const files = onlyFolders
      ? []
      : [...account.files.values()].filter((f) => f.folderId === id).map((f) => listItem(ctx.origin, f));
    return ok(c, { folders, files });
  });
  return app;
}
