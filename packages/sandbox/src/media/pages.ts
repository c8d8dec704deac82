/**
 * What the emulator serves besides the API: the player and download pages (`/e/<code>`,
 * `/d/<code>`, with the player options echoed so a link can be checked by eye), placeholder images,
 * and deterministic sample files to remote-upload (`/samples/<name>?size=N&rate=B`; a name with
 * `missing` is 404).
 */
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { MediaEnv, MediaSandboxContext } from './context';
import { sampleStream } from './samples';
import type { StoredFile } from './state';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function find(ctx: MediaSandboxContext, code: string): StoredFile | undefined {
  for (const account of ctx.accounts.values()) {
    for (const file of account.files.values())
      if (file.code === code || file.protectedCode === code) return file;
  }
  return undefined;
}

/** The page routes. */
export function pageRoutes(ctx: MediaSandboxContext): Hono<MediaEnv> {
  const app = new Hono<MediaEnv>();
  for (const kind of ['e', 'd'] as const) {
    app.get(`/${kind}/:code`, (c) => {
      const file = find(ctx, c.req.param('code'));
      if (!file) return c.html('<h1>File not found</h1>', 404);
      if (file.dmca) return c.html('<h1>This file was disabled after a copyright report</h1>', 451);
      const options = [...new URL(c.req.url).searchParams].map(
        ([k, v]) => `<li>${escapeHtml(k)}: ${escapeHtml(v)}</li>`,
      );
      const what = kind === 'e' ? 'Player' : 'Download';
      return c.html(
        `<!doctype html><title>${escapeHtml(file.title)}</title><h1>${what}: ${escapeHtml(file.title)}</h1><ul>${options.join('')}</ul>`,
      );
    });
  }
  app.get('/:dir{snaps|splash|thumbnails}/:name', (c) =>
    c.body('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"/>', 200, {
      'content-type': 'image/svg+xml',
    }),
  );
  app.get('/samples/:name', (c) => {
    const name = c.req.param('name');
    if (name.includes('missing')) return c.text('Not Found', 404);
    const size = Math.min(Number(c.req.query('size') ?? 1024 * 1024) || 0, 1024 ** 3);
    const rate = Number(c.req.query('rate') ?? 0) || undefined;
    const stream = sampleStream(size, { seed: name, ...(rate ? { bytesPerSecond: rate } : {}) });
    return c.body(Readable.toWeb(stream) as ReadableStream, 200, {
      'content-type': 'video/mp4',
      'content-length': String(size),
    });
  });
  return app;
}
