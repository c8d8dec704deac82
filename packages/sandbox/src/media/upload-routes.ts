/**
 * Local uploads: `GET /api/upload/server` hands out a new upload address each call
 * (`<origin>/upload/NN`, valid for an hour; anything else is 404), and `POST` to it takes a
 * `multipart/form-data` body with `api_key` and `file` (parsed as a stream with busboy; the key may
 * also be the bare query string `?<key>` or `?key=<key>`). The bytes go straight to a file under the
 * sandbox's data directory while their sha256 is computed, so memory use does not grow with the
 * size. The answer is the documented array of uploaded files; a new file is "encoding"
 * (`canplay` 0) for one step.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { type Context, Hono } from 'hono';
import type { MediaEnv, MediaSandboxContext } from './context';
import { fail, ok } from './envelope';
import { addFile, type MediaAccount, newCode, type StoredFile } from './state';
import { uploadItem } from './views';

/** The key of an upload request's query: `?<key>` or `?key=<key>`. */
function queryKey(url: string): string | undefined {
  const search = new URL(url).search.slice(1);
  if (!search) return undefined;
  const params = new URLSearchParams(search);
  const named = params.get('key') ?? params.get('api_key');
  if (named) return named;
  return search.includes('=') ? undefined : decodeURIComponent(search);
}

interface Received {
  code: string;
  title: string;
  size: number;
  sha256: string;
  path: string;
}

/** Parses the multipart body, storing each file part; resolves with the key field and the files. */
function receive(c: Context, filesDir: string, keyOf: () => string | undefined) {
  return new Promise<{ apiKey?: string; files: Received[]; error?: string }>((resolve) => {
    const body = c.req.raw.body;
    const contentType = c.req.header('content-type') ?? '';
    if (!body || !contentType.startsWith('multipart/form-data')) {
      resolve({ files: [], error: 'Expected a multipart/form-data upload' });
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType } });
    } catch (error) {
      resolve({ files: [], error: `Invalid upload: ${(error as Error).message}` });
      return;
    }
    const files: (Received | undefined)[] = [];
    const writes: Promise<void>[] = [];
    let apiKey: string | undefined;
    let failed: string | undefined;
    parser.on('field', (name, value) => {
      if (name === 'api_key') apiKey = value;
    });
    parser.on('file', (_name, stream, info) => {
      if (!(keyOf() ?? apiKey)) {
        stream.resume();
        return;
      }
      const code = newCode();
      const path = join(filesDir, code);
      const hash = createHash('sha256');
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          hash.update(chunk);
          done(null, chunk);
        },
      });
      // Answered in the order the form sent the files, whichever finishes writing first.
      const slot = writes.length;
      writes.push(
        pipeline(stream, counter, createWriteStream(`${path}.part`))
          .then(() => rename(`${path}.part`, path))
          .then(() => {
            const title = (info.filename || 'file').replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'file';
            files[slot] = { code, title, size, sha256: hash.digest('hex'), path };
          })
          .catch(async (error: Error) => {
            failed ??= `Upload failed: ${error.message}`;
            await rm(`${path}.part`, { force: true });
          }),
      );
    });
    parser.on('error', (error: Error) => {
      failed ??= `Invalid upload: ${error.message}`;
    });
    parser.on('close', () => {
      void Promise.all(writes).then(() =>
        resolve({
          ...(apiKey ? { apiKey } : {}),
          files: files.filter((file): file is Received => file !== undefined),
          ...(failed ? { error: failed } : {}),
        }),
      );
    });
    const source = Readable.fromWeb(body as unknown as WebReadableStream<Uint8Array>);
    source.on('error', (error) => parser.destroy(error));
    source.pipe(parser);
  });
}

/** `GET /api/upload/server` (behind the key check). */
export function uploadServerRoute(ctx: MediaSandboxContext): Hono<MediaEnv> {
  const app = new Hono<MediaEnv>();
  app.all('/upload/server', (c) => {
    const slot = String(ctx.nextSlot++).padStart(2, '0');
    ctx.uploadSlots.set(slot, Date.now() + ctx.settings.uploadSlotTtlMs);
    return ok(c, `${ctx.origin}/upload/${slot}`);
  });
  return app;
}

/** `POST /upload/:slot`: the upload server itself. */
export function uploadServer(ctx: MediaSandboxContext): Hono<MediaEnv> {
  const app = new Hono<MediaEnv>();
  app.post('/upload/:slot', async (c) => {
    const expires = ctx.uploadSlots.get(c.req.param('slot'));
    if (!expires || expires < Date.now()) {
      await c.req.raw.body?.cancel().catch(() => undefined);
      return fail(c, 404, 'Upload server not found or expired: ask /api/upload/server for a new one', 404);
    }
    const fromQuery = queryKey(c.req.url);
    const received = await receive(c, ctx.filesDir, () => fromQuery);
    const key = fromQuery ?? received.apiKey;
    const account: MediaAccount | undefined = key ? ctx.accounts.get(key) : undefined;
    if (!key) return fail(c, 403, 'No API key passed');
    if (!account) {
      await Promise.all(received.files.map((f) => rm(f.path, { force: true })));
      return fail(c, 403, 'Invalid key');
    }
    if (received.error) return fail(c, 400, received.error);
    if (received.files.length === 0) return fail(c, 400, 'No file uploaded');
    const stored: StoredFile[] = received.files.map((file) => {
      const added = addFile(account, { ...file, canPlay: false });
      ctx.timers.after(ctx.settings.stepMs, () => {
        added.canPlay = true;
      });
      return added;
    });
    return ok(
      c,
      stored.map((file) => uploadItem(ctx.origin, file)),
    );
  });
  return app;
}
