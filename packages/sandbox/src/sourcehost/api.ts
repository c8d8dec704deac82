/**
 * The emulated REST API host: common rules (a `User-Agent` is required; an unknown
 * `X-GitHub-Api-Version` is a 400; `Authorization: Bearer|token …` or `?access_token=`; Basic
 * authentication only on the legacy authorizations API), rate limits with their headers on every
 * answer (5,000/h per token, 60/h anonymous; `/rate_limit` is free; secondary limits on demand), and
 * the account routes `/user`, `/repos/{owner}/{repo}`, `/rate_limit`.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { basicError, repoJson, userJson } from './responses';
import type { SandboxAccount, SandboxToken, SourcehostState } from './state';

/** Variables the API middleware sets for the routes. */
export interface ApiEnv {
  Variables: {
    /** The authenticated account (token or Basic), if any. */
    account?: SandboxAccount;
    /** The token used, if any. */
    token?: SandboxToken;
    /** True when the request authenticated with a username and password. */
    basic?: boolean;
  };
}

const VERSIONS = new Set(['2022-11-28', '2026-03-10']);

/** Scopes a route needs, checked against the token's (implied ones included). */
export function hasScope(token: SandboxToken | undefined, needed: string): boolean {
  if (!token) return false;
  const implied: Record<string, string[]> = {
    repo: ['public_repo'],
    'admin:org': ['read:org', 'write:org'],
    user: ['read:user'],
  };
  return token.scopes.some((scope) => scope === needed || implied[scope]?.includes(needed));
}

/** Refuses a call whose token lacks `scope`, as the service does (403 with the accepted scopes). */
export function requireScope(c: Context<ApiEnv>, scope: string): Response | undefined {
  if (c.get('basic') || hasScope(c.get('token'), scope)) return undefined;
  c.header('x-accepted-oauth-scopes', scope);
  return basicError(c, 403, `This operation needs the ${scope} scope.`);
}

/** 401 unless someone is authenticated. */
export function requireAccount(c: Context<ApiEnv>): SandboxAccount | Response {
  return c.get('account') ?? basicError(c, 401, 'Requires authentication');
}

function rateHeaders(c: Context, window: { limit: number; used: number; reset: number }, resource: string) {
  c.header('x-ratelimit-limit', String(window.limit));
  c.header('x-ratelimit-remaining', String(Math.max(0, window.limit - window.used)));
  c.header('x-ratelimit-used', String(window.used));
  c.header('x-ratelimit-reset', String(window.reset));
  c.header('x-ratelimit-resource', resource);
}

/** The common rules and authentication. */
export function apiMiddleware(state: SourcehostState): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (!c.req.header('user-agent')) {
      return basicError(
        c,
        403,
        'Request forbidden by administrative rules. Please make sure your request has a User-Agent header.',
      );
    }
    const version = c.req.header('x-github-api-version');
    if (version !== undefined && !VERSIONS.has(version)) {
      return basicError(c, 400, `API version ${version} is not supported.`);
    }
    const auth = c.req.header('authorization') ?? '';
    const bearer = /^(?:bearer|token)\s+(\S+)$/i.exec(auth)?.[1] ?? c.req.query('access_token');
    const basic = /^basic\s+(\S+)$/i.exec(auth)?.[1];
    let key = 'anonymous';
    if (bearer) {
      const token = state.tokens.get(bearer);
      const account = token ? state.accounts.get(token.login) : undefined;
      if (!token || !account) return basicError(c, 401, 'Bad credentials');
      c.set('token', token);
      c.set('account', account);
      c.header('x-oauth-scopes', token.scopes.join(', '));
      key = `token:${token.token}`;
    } else if (basic) {
      const [login, password] = Buffer.from(basic, 'base64').toString().split(/:(.*)/s);
      const account = login ? state.accounts.get(login) : undefined;
      if (!account || account.password === undefined || account.password !== password) {
        return basicError(c, 401, 'Bad credentials');
      }
      c.set('account', account);
      c.set('basic', true);
      key = `basic:${login}`;
    }
    const resource = c.req.path.startsWith('/search') ? 'search' : 'core';
    if (c.req.path === '/rate_limit') return next();
    if (state.secondary.remaining > 0) {
      state.secondary.remaining -= 1;
      c.header('retry-after', String(state.secondary.retryAfter));
      return basicError(
        c,
        403,
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
      );
    }
    const window = windowOf(state, key, key === 'anonymous' ? 60 : 5000);
    if (window.used >= window.limit) {
      rateHeaders(c, window, resource);
      return basicError(c, 403, `API rate limit exceeded for ${key === 'anonymous' ? '127.0.0.1' : 'user'}.`);
    }
    window.used += 1;
    rateHeaders(c, window, resource);
    return next();
  };
}

/** The current window of a credential (a new one after the reset). */
export function windowOf(state: SourcehostState, key: string, limit: number) {
  const now = Math.floor(Date.now() / 1000);
  let window = state.windows.get(key);
  if (!window || window.reset <= now) {
    window = { limit, used: 0, reset: now + 3600 };
    state.windows.set(key, window);
  }
  return window;
}

/** `/user`, `/repos/{owner}/{repo}`, `/rate_limit`. */
export function createAccountRoutes(state: SourcehostState): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get('/user', (c) => {
    const account = requireAccount(c);
    if (account instanceof Response) return account;
    return c.json({ ...userJson(state, account), name: account.name });
  });

  app.get('/repos/:owner/:repo', (c) => {
    const repo = state.repos.get(`${c.req.param('owner')}/${c.req.param('repo')}`);
    const login = c.get('account')?.login;
    if (!repo || !state.permission(repo, login).pull) return basicError(c, 404, 'Not Found');
    if (repo.private && !c.get('basic') && !hasScope(c.get('token'), 'repo'))
      return basicError(c, 404, 'Not Found');
    return c.json(repoJson(state, repo, login));
  });

  app.get('/rate_limit', (c) => {
    const token = c.get('token');
    const key = token
      ? `token:${token.token}`
      : c.get('account')
        ? `basic:${c.get('account')?.login}`
        : 'anonymous';
    const core = windowOf(state, key, key === 'anonymous' ? 60 : 5000);
    const view = (w: { limit: number; used: number; reset: number }) => ({
      limit: w.limit,
      remaining: Math.max(0, w.limit - w.used),
      reset: w.reset,
      used: w.used,
    });
    const fresh = (limit: number) => view({ limit, used: 0, reset: core.reset });
    rateHeaders(c, core, 'core');
    return c.json({
      resources: {
        core: view(core),
        search: fresh(30),
        graphql: fresh(key === 'anonymous' ? 0 : 5000),
        integration_manifest: fresh(5000),
        code_search: fresh(10),
        source_import: fresh(100),
        code_scanning_upload: fresh(1000),
      },
      rate: view(core),
    });
  });

  return app;
}
