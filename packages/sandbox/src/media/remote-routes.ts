/**
 * `upload/url` and `urlupload/list|status|slots|actions`. The file code is handed out at once; a URL
 * already in the queue gets status 400, as does a malformed URL or a full set of slots. Actions take
 * exactly one of `restart_errors`, `clear_errors`, `clear_all`, `delete_code`, and answer with a `msg`
 * describing what was done (not "OK").
 */
import { Hono } from 'hono';
import type { MediaEnv, MediaSandboxContext } from './context';
import { fail, ok } from './envelope';
import { scheduleTransfer } from './remote-runner';
import { type MediaAccount, newCode, type RemoteJob, serverTime } from './state';

function usedSlots(account: MediaAccount): number {
  return [...account.remote.values()].filter((j) => j.status === 'pending' || j.status === 'working').length;
}

function item(job: RemoteJob) {
  return {
    bytes_total: String(job.bytesTotal),
    created: job.created,
    remote_url: job.url,
    status: job.status,
    file_code: job.code,
    bytes_downloaded: String(job.bytesDownloaded),
    folder_id: job.folderId,
  };
}

/** The remote-upload routes. */
export function remoteRoutes(ctx: MediaSandboxContext): Hono<MediaEnv> {
  const app = new Hono<MediaEnv>();
  app.all('/upload/url', (c) => {
    const account = c.get('account');
    const raw = c.req.query('url') ?? '';
    const folder = c.req.query('fld_id') || '0';
    const title = c.req.query('new_title') ?? '';
    if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) return fail(c, 400, 'Invalid URL');
    if ([...account.remote.values()].some((j) => j.url === raw)) return fail(c, 400, 'URL already in queue');
    if (folder !== '0' && !account.folders.has(folder)) return fail(c, 404, 'Folder not found');
    if (usedSlots(account) >= account.totalSlots) return fail(c, 400, 'No free slots');
    const job: RemoteJob = {
      code: newCode(),
      url: raw,
      status: 'pending',
      bytesTotal: 0,
      bytesDownloaded: 0,
      folderId: folder,
      title,
      created: serverTime(),
    };
    account.remote.set(job.code, job);
    scheduleTransfer(ctx, account, job);
    return ok(
      c,
      { filecode: job.code },
      { new_title: title, total_slots: String(account.totalSlots), used_slots: String(usedSlots(account)) },
    );
  });
  app.all('/urlupload/list', (c) => ok(c, [...c.get('account').remote.values()].map(item)));
  app.all('/urlupload/status', (c) => {
    const code = c.req.query('file_code');
    if (!code) return fail(c, 400, 'Missing file_code');
    const job = c.get('account').remote.get(code);
    return ok(c, job ? [item(job)] : []);
  });
  app.all('/urlupload/slots', (c) => {
    const account = c.get('account');
    return ok(c, undefined, {
      total_slots: String(account.totalSlots),
      used_slots: String(usedSlots(account)),
    });
  });
  app.all('/urlupload/actions', (c) => {
    const account = c.get('account');
    const given = ['restart_errors', 'clear_errors', 'clear_all', 'delete_code'].filter(
      (name) => c.req.query(name) !== undefined && c.req.query(name) !== '',
    );
    if (given.length !== 1) return fail(c, 400, 'Specify exactly one action');
    const jobs = [...account.remote.values()];
    switch (given[0]) {
      case 'restart_errors':
        for (const job of jobs.filter((j) => j.status === 'error')) {
          job.status = 'pending';
          job.bytesDownloaded = 0;
          delete job.error;
          scheduleTransfer(ctx, account, job);
        }
        return ok(c, undefined, {}, 'Errors restarted');
      case 'clear_errors':
        for (const job of jobs.filter((j) => j.status === 'error')) account.remote.delete(job.code);
        return ok(c, undefined, {}, 'Errors cleared');
      case 'clear_all':
        for (const job of jobs) {
          job.abort?.();
          account.remote.delete(job.code);
        }
        return ok(c, undefined, {}, 'All transfers cleared');
      default: {
        const code = c.req.query('delete_code') as string;
        const job = account.remote.get(code);
        if (!job) return fail(c, 404, 'Transfer not found');
        job.abort?.();
        account.remote.delete(code);
        return ok(c, undefined, {}, 'Transfer deleted');
      }
    }
  });
  return app;
}
