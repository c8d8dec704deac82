/**
 * `account/info`, `account/stats` and `dmca/list`. Statistics are made up but deterministic per key
 * and day (so a test can compare two calls); a range is `last` days (default 7) or `from_date` to
 * `to_date` (`YYYY-MM-DD`, at most 365 days); a malformed one gets status 400.
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import type { MediaEnv, MediaSandboxContext } from './context';
import { fail, ok } from './envelope';
import { storageUsed } from './state';

const DAY_MS = 86_400_000;
/** Storage of an account, in bytes (as the real free tier: about 128 GB). */
const STORAGE_BYTES = 128_849_018_880;

function parseDay(value: string | undefined): number | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const at = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== value ? undefined : at;
}

/** The statistics of one day of one account. */
export function dailyStats(key: string, day: string) {
  const digest = createHash('sha256').update(`${key}|${day}`).digest();
  const views = digest.readUInt16BE(0) % 500;
  const downloads = Math.floor(views / 5) + ((digest[2] as number) % 7);
  const profitViews = views * 0.0004;
  return {
    profit_views: profitViews.toFixed(5),
    downloads: String(downloads),
    views: String(views),
    day,
    profit_total: (profitViews + downloads * 0.0001).toFixed(5),
  };
}

/** The account and statistics routes. */
export function accountRoutes(ctx: MediaSandboxContext): Hono<MediaEnv> {
  const app = new Hono<MediaEnv>();
  app.all('/account/info', (c) => {
    const account = c.get('account');
    const used = storageUsed(account);
    return ok(c, {
      email: account.email,
      balance: account.balance,
      storage_used: String(used),
      storage_left: STORAGE_BYTES - used,
      premim_expire: account.premiumExpire,
    });
  });
  app.all('/account/stats', (c) => {
    const key = c.get('account').key;
    const last = c.req.query('last');
    const from = c.req.query('from_date');
    const to = c.req.query('to_date');
    const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    let start: number;
    let end: number;
    if (from !== undefined || to !== undefined) {
      const a = parseDay(from);
      const b = parseDay(to);
      if (a === undefined || b === undefined) return fail(c, 400, 'Invalid date format, use YYYY-MM-DD');
      if (a > b) return fail(c, 400, 'from_date is after to_date');
      if ((b - a) / DAY_MS >= 365) return fail(c, 400, 'Date range too long (max 365 days)');
      start = a;
      end = b;
    } else {
      const days = last === undefined ? 7 : Number(last);
      if (!Number.isInteger(days) || days < 1 || days > 365) return fail(c, 400, 'Invalid last value');
      end = today;
      start = today - (days - 1) * DAY_MS;
    }
    const result = [];
    for (let at = start; at <= end; at += DAY_MS) {
      result.push(dailyStats(key, new Date(at).toISOString().slice(0, 10)));
    }
    return ok(c, result);
  });
  app.all('/dmca/list', (c) => {
    const account = c.get('account');
    const perPage = Math.max(1, Number(c.req.query('per_page') ?? 500) || 500);
    const page = Math.max(1, Number(c.req.query('page') ?? 1) || 1);
    const reported = [...account.files.values()].filter((f) => f.dmca);
    const result = reported.slice((page - 1) * perPage, page * perPage).map((f) => ({
      reported_on: f.dmca?.reportedOn,
      protected_download: `${ctx.origin}/d/${f.protectedCode}`,
      protected_embed: `${ctx.origin}/e/${f.protectedCode}`,
      file_code: f.code,
      fld_id: f.folderId,
      disabled_on: f.dmca?.disabledOn,
    }));
    return ok(c, result);
  });
  return app;
}
