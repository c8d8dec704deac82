/**
 * `file/list|check|info|image|rename|move|clone` and `search/videos`. A code the account does not
 * have is, per item, `"Not found or not your file"` (info, image) or a top-level 404 (rename, move,
 * clone); a DMCA-disabled file answers 451. `per_page` is at most 200.
 */
import { Hono } from 'hono';
import type { MediaEnv, MediaSandboxContext } from './context';
import { fail, ok } from './envelope';
import { addFile, type MediaAccount, type StoredFile } from './state';
import { imagesItem, infoItem, listItem, notYours, searchItem } from './views';

const NOT_YOURS = 'Not found or not your file';

/** Files uploaded after `created` (a time `YYYY-MM-DD HH:MM:SS`, or a number of minutes ago). */
function createdFilter(created: string | undefined): ((file: StoredFile) => boolean) | undefined | 'bad' {
  if (created === undefined || created === '') return undefined;
  if (/^\d+$/.test(created)) {
    const since = Date.now() - Number(created) * 60_000;
    return (file) => file.uploadedAt >= since;
  }
  const at = Date.parse(`${created.replace(' ', 'T')}Z`);
  if (Number.isNaN(at)) return 'bad';
  return (file) => file.uploadedAt > at;
}

function folderExists(account: MediaAccount, id: string): boolean {
  return id === '0' || account.folders.has(id);
}

/** The file routes. */
export function fileRoutes(ctx: MediaSandboxContext): Hono<MediaEnv> {
  const app = new Hono<MediaEnv>();
  const codes = (raw: string | undefined) =>
    (raw ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  app.all('/file/list', (c) => {
    const account = c.get('account');
    const page = Number(c.req.query('page') ?? 1);
    const perPage = Number(c.req.query('per_page') ?? 20);
    if (!Number.isInteger(page) || page < 1) return fail(c, 400, 'Invalid page');
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 200)
      return fail(c, 400, 'per_page must be 1-200');
    const folder = c.req.query('fld_id');
    const created = createdFilter(c.req.query('created'));
    if (created === 'bad') return fail(c, 400, 'Invalid created value');
    const files = [...account.files.values()]
      .filter((f) => folder === undefined || folder === '' || f.folderId === folder)
      .filter((f) => !created || created(f))
      .sort((a, b) => b.uploadedAt - a.uploadedAt || a.title.localeCompare(b.title));
    const shown = files.slice((page - 1) * perPage, page * perPage);
    return ok(c, {
      total_pages: Math.max(1, Math.ceil(files.length / perPage)),
      files: shown.map((f) => listItem(ctx.origin, f)),
      results_total: String(files.length),
      results: shown.length,
    });
  });

  /** A route taking `file_code` (one or a comma-separated list) and answering one item per code. */
  const perCode = (path: string, item: (code: string, file: StoredFile | undefined) => unknown) =>
    app.all(path, (c) => {
      const account = c.get('account');
      const list = codes(c.req.query('file_code'));
      if (list.length === 0) return fail(c, 400, 'Missing file_code');
      return ok(
        c,
        list.map((code) => item(code, account.files.get(code))),
      );
    });

  perCode('/file/check', (code, file) => ({
    status: !file ? 'Not found' : file.dmca ? 'Disabled (DMCA)' : 'Active',
    filecode: code,
  }));
  perCode('/file/info', (code, file) => (file ? infoItem(ctx.origin, file) : notYours(code)));
  perCode('/file/image', (code, file) => (file ? imagesItem(ctx.origin, file) : notYours(code)));

  app.all('/file/rename', (c) => {
    const account = c.get('account');
    const file = account.files.get(c.req.query('file_code') ?? '');
    const title = c.req.query('title')?.trim();
    if (!file) return fail(c, 404, NOT_YOURS);
    if (file.dmca) return fail(c, 451, 'File disabled (DMCA)');
    if (!title) return fail(c, 400, 'Missing title');
    if (title.length > 255) return fail(c, 400, 'Title too long (max 255)');
    file.title = title;
    return ok(c, 'true');
  });

  app.all('/file/move', (c) => {
    const account = c.get('account');
    const file = account.files.get(c.req.query('file_code') ?? '');
    const folder = c.req.query('fld_id') ?? '0';
    if (!file) return fail(c, 404, NOT_YOURS);
    if (!folderExists(account, folder)) return fail(c, 404, 'Folder not found');
    file.folderId = folder;
    return ok(c, 'true');
  });

  app.all('/file/clone', (c) => {
    const account = c.get('account');
    const source = account.files.get(c.req.query('file_code') ?? '');
    const folder = c.req.query('fld_id') ?? source?.folderId ?? '0';
    if (!source) return fail(c, 404, NOT_YOURS);
    if (source.dmca) return fail(c, 451, 'File disabled (DMCA)');
    if (!folderExists(account, folder)) return fail(c, 404, 'Folder not found');
    const { code: _code, protectedCode: _p, views: _v, uploaded: _u, uploadedAt: _a, ...rest } = source;
    const copy = addFile(account, { ...rest, folderId: folder });
    return ok(c, {
      embed_url: `${ctx.origin}/e/${copy.code}`,
      download_url: `${ctx.origin}/d/${copy.code}`,
      protected_download: `${ctx.origin}/d/${copy.protectedCode}`,
      protected_embed: `${ctx.origin}/e/${copy.protectedCode}`,
      filecode: copy.code,
    });
  });

  app.all('/search/videos', (c) => {
    const account = c.get('account');
    const term = c.req.query('search_term')?.trim().toLowerCase();
    if (!term) return fail(c, 400, 'Missing search_term');
    const found = [...account.files.values()].filter((f) => f.title.toLowerCase().includes(term));
    return ok(
      c,
      found.map((f) => searchItem(ctx.origin, f)),
    );
  });
  return app;
}
