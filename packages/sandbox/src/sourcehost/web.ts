/**
 * The emulated web host: the OAuth authorize page (Approve / Deny, fewer scopes may be granted), the
 * token endpoint (form, JSON or XML by `Accept`; errors with HTTP 200; PKCE S256), the redirect rules
 * for `redirect_uri`, the application settings page (revoke), and archive downloads.
 */
import { createHash, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { type Context, Hono } from 'hono';
import { SEEDED_USERS } from './seed';
import type { SourcehostState } from './state';
import { authorizePage, errorPage, html, settingsPage } from './web-pages';

/** Implied scopes dropped when the scope implying them is asked too (normalisation). */
const IMPLIED_BY: Record<string, string> = {
  'user:email': 'user',
  'user:follow': 'user',
  'read:user': 'user',
  public_repo: 'repo',
  'repo:status': 'repo',
  repo_deployment: 'repo',
  'read:org': 'admin:org',
  'write:org': 'admin:org',
};

/** Drops scopes implied by another one asked for. */
export function normaliseScopes(scopes: string[]): string[] {
  const set = new Set(scopes.filter(Boolean));
  return [...set].filter((scope) => !(IMPLIED_BY[scope] && set.has(IMPLIED_BY[scope] as string)));
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The redirect rules: the host (or a sub-domain of it) and port must equal the registered callback's,
 * the path must be the callback's or under it; a loopback callback accepts any port.
 */
export function redirectAllowed(registered: string, given: string): boolean {
  let reg: URL;
  let url: URL;
  try {
    reg = new URL(registered);
    url = new URL(given);
  } catch {
    return false;
  }
  if (reg.protocol !== url.protocol) return false;
  const sameHost = url.hostname === reg.hostname || url.hostname.endsWith(`.${reg.hostname}`);
  const portOk = LOOPBACK.has(reg.hostname) || url.port === reg.port;
  const base = reg.pathname.replace(/\/$/, '');
  const pathOk = url.pathname === reg.pathname || url.pathname.startsWith(`${base}/`);
  return sameHost && portOk && pathOk;
}

function redirectWith(target: string, params: Record<string, string | undefined>): string {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

const ERROR_DESCRIPTIONS: Record<string, string> = {
  access_denied: 'The user has denied your application access.',
  application_suspended: 'Your application has been suspended. Contact support.',
  redirect_uri_mismatch: 'The redirect_uri MUST match the registered callback URL for this application.',
  incorrect_client_credentials: 'The client_id and/or client_secret passed are incorrect.',
  bad_verification_code: 'The code passed is incorrect or expired.',
};

function errorUri(error: string): string {
  return `https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#${error.replaceAll('_', '-')}`;
}

/** The web host app. */
export function createWebApp(state: SourcehostState): Hono {
  const app = new Hono();

  app.get('/login/oauth/authorize', (c) => {
    const q = (name: string) => c.req.query(name);
    if (q('client_id') !== state.app.clientId)
      return c.html(errorPage('Not Found', 'No such application.'), 404);
    const method = q('code_challenge_method');
    if (method !== undefined && method !== 'S256') {
      return c.html(errorPage('Unsupported code_challenge_method', 'Only S256 is supported.'), 400);
    }
    const state_ = q('state');
    const given = q('redirect_uri');
    if (given !== undefined && !redirectAllowed(state.app.callbackUrl, given)) {
      return c.redirect(
        redirectWith(state.app.callbackUrl, {
          error: 'redirect_uri_mismatch',
          error_description: ERROR_DESCRIPTIONS.redirect_uri_mismatch,
          error_uri: errorUri('redirect_uri_mismatch'),
          state: state_,
        }),
        302,
      );
    }
    const redirectUri = given ?? state.app.callbackUrl;
    if (state.app.suspended) {
      return c.redirect(
        redirectWith(redirectUri, {
          error: 'application_suspended',
          error_description: ERROR_DESCRIPTIONS.application_suspended,
          error_uri: errorUri('application_suspended'),
          state: state_,
        }),
        302,
      );
    }
    const scopes = normaliseScopes((q('scope') ?? '').split(/[\s,]+/));
    const hidden: Record<string, string> = { client_id: state.app.clientId, redirect_uri: redirectUri };
    if (state_ !== undefined) hidden.state = state_;
    const challenge = q('code_challenge');
    if (challenge) hidden.code_challenge = challenge;
    return c.html(
      authorizePage({ app: state.app, users: SEEDED_USERS, suggested: q('login'), scopes, hidden }),
    );
  });

  app.post('/login/oauth/authorize', async (c) => {
    const form = await c.req.parseBody({ all: true });
    const one = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : undefined);
    const redirectUri = one('redirect_uri') ?? state.app.callbackUrl;
    if (one('client_id') !== state.app.clientId || !redirectAllowed(state.app.callbackUrl, redirectUri)) {
      return c.html(errorPage('Bad request', 'The authorization request is not valid.'), 400);
    }
    if (one('decision') !== 'approve') {
      return c.redirect(
        redirectWith(redirectUri, {
          error: 'access_denied',
          error_description: ERROR_DESCRIPTIONS.access_denied,
          error_uri: errorUri('access_denied'),
          state: one('state'),
        }),
        302,
      );
    }
    const login = one('login') ?? SEEDED_USERS[0];
    if (!state.accounts.has(login)) return c.html(errorPage('Bad request', 'Unknown account.'), 400);
    const raw = form.scope;
    const granted = normaliseScopes((Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String));
    const code = randomBytes(10).toString('hex');
    const challenge = one('code_challenge');
    state.codes.set(code, {
      clientId: state.app.clientId,
      login,
      scopes: granted,
      redirectUri,
      ...(challenge ? { codeChallenge: challenge } : {}),
      expiresAt: Date.now() + 10 * 60_000,
      used: false,
    });
    return c.redirect(redirectWith(redirectUri, { code, state: one('state') }), 302);
  });

  app.post('/login/oauth/access_token', async (c) => {
    const type = c.req.header('content-type') ?? '';
    const body: Record<string, unknown> = type.includes('json')
      ? await c.req.json().catch(() => ({}))
      : await c.req.parseBody();
    const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
    const answer = (fields: Record<string, string>) => tokenAnswer(c, fields);
    const fail = (error: string) =>
      answer({ error, error_description: ERROR_DESCRIPTIONS[error] ?? error, error_uri: errorUri(error) });
    if (field('client_id') !== state.app.clientId || field('client_secret') !== state.app.clientSecret) {
      return fail('incorrect_client_credentials');
    }
    const code = state.codes.get(field('code') ?? '');
    if (!code || code.used || code.expiresAt < Date.now()) return fail('bad_verification_code');
    const redirectUri = field('redirect_uri');
    if (redirectUri !== undefined && redirectUri !== code.redirectUri) return fail('redirect_uri_mismatch');
    if (code.codeChallenge) {
      const verifier = field('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== code.codeChallenge) {
        return fail('bad_verification_code');
      }
    }
    code.used = true;
    const token = state.issueToken(code.login, code.scopes, code.clientId);
    return answer({ access_token: token.token, scope: code.scopes.join(','), token_type: 'bearer' });
  });

  app.get('/settings/connections/applications/:clientId', (c) => {
    if (c.req.param('clientId') !== state.app.clientId)
      return c.html(errorPage('Not Found', 'No such application.'), 404);
    const tokens = [...state.tokens.values()].filter((t) => t.clientId === state.app.clientId).length;
    return c.html(settingsPage(state.app, SEEDED_USERS, tokens));
  });

  app.post('/settings/connections/applications/:clientId', async (c) => {
    const form = await c.req.parseBody();
    const login = String(form.login ?? '');
    for (const [value, token] of state.tokens) {
      if (token.clientId === state.app.clientId && token.login === login) state.tokens.delete(value);
    }
    return c.html(errorPage('Access revoked', `${state.app.name} no longer has access to ${html(login)}.`));
  });

  app.get('/_archives/:token', (c) => {
    const migration = [...state.migrations.values()].find(
      (m) => m.archive && `${m.archive}.tar.gz` === c.req.param('token'),
    );
    if (!migration) return c.text('Not Found', 404);
    c.header('content-type', 'application/gzip');
    return c.body(new Uint8Array(archiveBytes(migration.guid)));
  });

  return app;
}

/** The token endpoint's answer in the format `Accept` asks for (form-encoded by default). */
function tokenAnswer(c: Context, fields: Record<string, string>): Response {
  const accept = c.req.header('accept') ?? '';
  if (accept.includes('application/json')) return c.json(fields, 200);
  if (accept.includes('application/xml')) {
    const children = Object.entries(fields)
      .map(([key, value]) => `<${key}>${html(value)}</${key}>`)
      .join('');
    c.header('content-type', 'application/xml; charset=utf-8');
    return c.body(`<OAuth>${children}</OAuth>`, 200);
  }
  c.header('content-type', 'application/x-www-form-urlencoded; charset=utf-8');
  return c.body(new URLSearchParams(fields).toString(), 200);
}

/** A small gzip stream standing in for the export archive (no client unpacks it). */
function archiveBytes(guid: string): Buffer {
  return gzipSync(`sandbox migration archive ${guid}\n`);
}
