/**
 * The media host sandbox: an in-process emulator of the DoodStream-style API (specs/media/README.md)
 * on one OS-chosen port of 127.0.0.1 — the `/api/…` calls behind the key check and the rate limit,
 * upload servers whose address changes per call, multipart uploads stored on disk, remote uploads
 * that download from addresses on this machine and move through pending → working → done (or
 * error), slots, folders, files, search, stats, the DMCA list, and the player pages.
 *
 * Knobs: `stepMs` paces every lifecycle; `rateLimitPerSecond` (default 10, the real limit) and
 * `controls.rateLimitNext(n)` produce `Too Many Requests`; `controls.addAccount(key)` adds a second
 * account; `controls.stored(code)` tells where an uploaded file's bytes are and their sha256.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Hono } from 'hono';
import { listen, serverFor, shut } from '../http-server';
import { accountRoutes } from './account-routes';
import {
  createMediaContext,
  type MediaEnv,
  type MediaSandboxContext,
  type MediaSandboxSettings,
} from './context';
import { fail } from './envelope';
import { fileRoutes } from './file-routes';
import { folderRoutes } from './folder-routes';
import { apiGuard } from './guard';
import { pageRoutes } from './pages';
import { remoteRoutes } from './remote-routes';
import { addAccount, SANDBOX_MEDIA_KEY, seedMedia } from './seed';
import type { MediaAccount, StoredFile } from './state';
import { uploadServer, uploadServerRoute } from './upload-routes';

/** Options of {@link startMediaSandbox}. */
export interface MediaSandboxOptions extends Partial<MediaSandboxSettings> {
  /** Where uploaded bytes go: a fresh directory is made under `<dataDir>/sandbox/media/`. */
  dataDir: string;
  /** Seed the demo account (default true). */
  seed?: boolean;
  /** Key of the seeded account (default {@link SANDBOX_MEDIA_KEY}). */
  apiKey?: string;
}

/** Test and demo controls. */
export interface MediaSandboxControls {
  /** The next `n` API calls are answered `Too Many Requests`. */
  rateLimitNext(n: number): void;
  /** Adds an empty account for another key. */
  addAccount(key: string): MediaAccount;
  /** An account by key. */
  account(key?: string): MediaAccount | undefined;
  /** A stored file by code, in any account. */
  file(code: string): StoredFile | undefined;
}

/** A running media sandbox. */
export interface MediaSandbox {
  /** API base, e.g. `http://127.0.0.1:40125` (paths are `/api/…`); also the player host. */
  apiUrl: string;
  /** The seeded account's key. */
  apiKey: string;
  /** Where uploaded bytes are stored. */
  filesDir: string;
  ctx: MediaSandboxContext;
  controls: MediaSandboxControls;
  /** Stops timers, transfers and the listener, and removes the stored bytes. */
  close(): Promise<void>;
}

/** The emulator's app (also usable with `app.request()`). */
export function createMediaApp(ctx: MediaSandboxContext): Hono<MediaEnv> {
  const app = new Hono<MediaEnv>();
  const api = new Hono<MediaEnv>();
  api.use('*', apiGuard(ctx));
  api.route('/', accountRoutes(ctx));
  api.route('/', fileRoutes(ctx));
  api.route('/', folderRoutes(ctx));
  api.route('/', remoteRoutes(ctx));
  api.route('/', uploadServerRoute(ctx));
  app.route('/api', api);
  app.route('/', uploadServer(ctx));
  app.route('/', pageRoutes(ctx));
  app.notFound((c) => fail(c, 404, `Unknown endpoint ${c.req.path}`, 404));
  app.onError((error, c) => fail(c, 500, `Internal error: ${error.message}`, 500));
  return app;
}

/** Starts the emulator on an OS-chosen port of 127.0.0.1. */
export async function startMediaSandbox(options: MediaSandboxOptions): Promise<MediaSandbox> {
  const filesDir = join(
    resolve(options.dataDir),
    'sandbox',
    'media',
    `${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  mkdirSync(filesDir, { recursive: true });
  const ctx = createMediaContext(filesDir, options);
  const apiKey = options.apiKey ?? SANDBOX_MEDIA_KEY;
  if (options.seed !== false) seedMedia(ctx, apiKey);
  else addAccount(ctx, apiKey);
  const app = createMediaApp(ctx);
  const server = serverFor({ fetch: app.fetch });
  ctx.origin = `http://127.0.0.1:${await listen(server, '127.0.0.1')}`;
  return {
    apiUrl: ctx.origin,
    apiKey,
    filesDir,
    ctx,
    controls: {
      rateLimitNext: (n) => {
        ctx.forcedRateLimits = n;
      },
      addAccount: (key) => addAccount(ctx, key),
      account: (key = apiKey) => ctx.accounts.get(key),
      file: (code) => {
        for (const account of ctx.accounts.values()) {
          const file = account.files.get(code);
          if (file) return file;
        }
        return undefined;
      },
    },
    async close() {
      ctx.timers.close();
      await shut(server);
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

export { sampleChunks, sampleSha256, sampleStream } from './samples';
export { SANDBOX_MEDIA_KEY } from './seed';
