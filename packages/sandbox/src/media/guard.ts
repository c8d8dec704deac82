/**
 * Every API call carries `key` (query, or the form body of a POST): a missing key gets
 * `No API key passed`, an unknown one `Invalid key` (status 403). More than
 * `rateLimitPerSecond` calls of one key within a second get `{"msg":"Too Many Requests","status":"429"}`
 * — with `status` a string and no `server_time`, exactly as the docs show.
 */
import type { MiddlewareHandler } from 'hono';
import type { MediaEnv, MediaSandboxContext } from './context';
import { fail } from './envelope';

/** Reads a parameter from the query or, for a POST, from the form body. */
export async function param(
  c: Parameters<MiddlewareHandler<MediaEnv>>[0],
  name: string,
): Promise<string | undefined> {
  const fromQuery = c.req.query(name);
  if (fromQuery !== undefined) return fromQuery;
  if (c.req.method !== 'POST') return undefined;
  const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

/** Answers a rate-limited request, if this one is. */
export function rateLimited(ctx: MediaSandboxContext, key: string, now = Date.now()): boolean {
  if (ctx.forcedRateLimits > 0) {
    ctx.forcedRateLimits -= 1;
    return true;
  }
  const limit = ctx.settings.rateLimitPerSecond;
  if (limit <= 0) return false;
  const times = (ctx.recent.get(key) ?? []).filter((t) => now - t < 1000);
  if (times.length >= limit) {
    ctx.recent.set(key, times);
    return true;
  }
  times.push(now);
  ctx.recent.set(key, times);
  return false;
}

/** The key check and rate limit of the `/api` routes; sets `account`. */
export function apiGuard(ctx: MediaSandboxContext): MiddlewareHandler<MediaEnv> {
  return async (c, next) => {
    const key = await param(c, 'key');
    if (!key) return fail(c, 403, 'No API key passed');
    const account = ctx.accounts.get(key);
    if (!account) return fail(c, 403, 'Invalid key');
    if (rateLimited(ctx, key)) {
      return c.json({ msg: 'Too Many Requests', status: '429' }, ctx.settings.rateLimitHttpStatus);
    }
    c.set('account', account);
    await next();
  };
}
