/**
 * Runs a remote upload as the host would: `pending` for one step, then `working` while the source
 * is downloaded (progress in `bytes_downloaded` of `bytes_total`), then, one step after the last
 * byte, the file appears in the account under the code handed out at once and the transfer leaves
 * the queue. A failed download (an answer other than 200, a broken stream) leaves it in `error`.
 * Only sources on this machine (127.0.0.0/8, localhost, ::1) can be fetched: the sandbox never
 * reaches the internet; anything else fails as an unsupported host.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import type { MediaSandboxContext } from './context';
import { addFile, type MediaAccount, type RemoteJob } from './state';

/** True for addresses the sandbox may download from. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A title from the last segment of a URL, without its extension. */
function titleOf(url: string): string {
  const last = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop() ?? 'remote file');
  return last.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'remote file';
}

function failJob(job: RemoteJob, reason: string): void {
  job.status = 'error';
  job.error = reason;
  delete job.abort;
}

/** Schedules a pending transfer to start after one step. */
export function scheduleTransfer(ctx: MediaSandboxContext, account: MediaAccount, job: RemoteJob): void {
  ctx.timers.after(ctx.settings.stepMs, () => {
    void transfer(ctx, account, job);
  });
}

async function transfer(ctx: MediaSandboxContext, account: MediaAccount, job: RemoteJob): Promise<void> {
  if (account.remote.get(job.code) !== job || job.status !== 'pending') return;
  const url = new URL(job.url);
  if (!isLoopback(url.hostname)) {
    failJob(job, 'Remote host is not supported');
    return;
  }
  job.status = 'working';
  job.bytesDownloaded = 0;
  const abort = new AbortController();
  job.abort = () => abort.abort();
  const unregister = ctx.timers.onClose(() => abort.abort());
  const path = join(ctx.filesDir, job.code);
  const hash = createHash('sha256');
  try {
    const response = await request(url, {
      method: 'GET',
      signal: abort.signal,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    if (response.statusCode !== 200) {
      await response.body.dump();
      failJob(job, `Remote server answered ${response.statusCode}`);
      return;
    }
    job.bytesTotal = Number(response.headers['content-length'] ?? 0) || 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        job.bytesDownloaded += chunk.length;
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(response.body, counter, createWriteStream(path));
  } catch (error) {
    if (account.remote.get(job.code) === job) failJob(job, `Download failed: ${(error as Error).message}`);
    return;
  } finally {
    unregister();
  }
  if (account.remote.get(job.code) !== job) return;
  if (job.bytesTotal === 0) job.bytesTotal = job.bytesDownloaded;
  delete job.abort;
  ctx.timers.after(ctx.settings.stepMs, () => {
    if (account.remote.get(job.code) !== job) return;
    account.remote.delete(job.code);
    const file = addFile(account, {
      code: job.code,
      title: job.title || titleOf(job.url),
      size: job.bytesDownloaded,
      folderId: account.folders.has(job.folderId) ? job.folderId : '0',
      path,
      sha256: hash.digest('hex'),
      canPlay: false,
    });
    ctx.timers.after(ctx.settings.stepMs, () => {
      file.canPlay = true;
    });
  });
}
