/**
 * The legacy OAuth authorizations and grants API: Basic authentication only (a token is refused),
 * authorizations are tokens with a note and fingerprint whose value is only returned at creation,
 * get-or-create answers 200 for an existing one and 201 for a new one, an update takes one of
 * `scopes`/`add_scopes`/`remove_scopes`, and a grant is the union of an application's authorizations
 * for the user (deleting it deletes them all).
 */
import { type Context, Hono } from 'hono';
import type { ApiEnv } from './api';
import { basicError, paginate, validationError } from './responses';
import type { SandboxAuthorization, SourcehostState } from './state';

/** The routes under `/authorizations` and `/applications/grants`. */
export function createAuthorizationRoutes(state: SourcehostState): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const appInfo = (clientId: string) => ({
    client_id: clientId,
    name: clientId === state.app.clientId ? state.app.name : 'An OAuth application',
    url: `${state.webUrl}/apps/${clientId}`,
  });
  const view = (a: SandboxAuthorization, withToken: boolean) => ({
    id: a.id,
    url: `${state.apiUrl}/authorizations/${a.id}`,
    scopes: a.scopes,
    token: withToken ? a.token : '',
    token_last_eight: a.token.slice(-8),
    hashed_token: Buffer.from(a.token).toString('base64').slice(0, 44),
    app: appInfo(a.clientId),
    note: a.note,
    note_url: a.noteUrl,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    fingerprint: a.fingerprint,
    expires_at: null,
  });
  const login = (c: Context<ApiEnv>) => (c.get('basic') ? c.get('account')?.login : undefined);
  const mine = (who: string) => [...state.authorizations.values()].filter((a) => a.login === who);
  const create = (
    who: string,
    clientId: string,
    body: Record<string, unknown>,
    fingerprint: string | null,
  ) => {
    const now = new Date().toISOString();
    const scopes = Array.isArray(body.scopes) ? body.scopes.map(String) : [];
    const token = state.issueToken(who, scopes, clientId);
    const created: SandboxAuthorization = {
      id: state.id(),
      login: who,
      clientId,
      token: token.token,
      scopes,
      note: typeof body.note === 'string' ? body.note : null,
      noteUrl: typeof body.note_url === 'string' ? body.note_url : null,
      fingerprint,
      createdAt: now,
      updatedAt: now,
    };
    state.authorizations.set(created.id, created);
    return created;
  };

  const basicOnly = async (c: Context<ApiEnv>, next: () => Promise<void>) =>
    login(c) ? next() : basicError(c, 401, 'Requires authentication');
  for (const path of [
    '/authorizations',
    '/authorizations/*',
    '/applications/grants',
    '/applications/grants/*',
  ]) {
    app.use(path, basicOnly);
  }

  app.get('/authorizations', (c) => {
    const paged = paginate(c, mine(login(c) as string));
    return 'error' in paged ? paged.error : c.json(paged.page.map((a) => view(a, false)));
  });

  app.post('/authorizations', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    if (body.scopes !== undefined && body.scopes !== null && !Array.isArray(body.scopes)) {
      return validationError(c, { resource: 'OauthAccess', field: 'scopes', code: 'invalid' });
    }
    const clientId = typeof body.client_id === 'string' ? body.client_id : 'personal-token';
    const created = create(
      login(c) as string,
      clientId,
      body,
      typeof body.fingerprint === 'string' ? body.fingerprint : null,
    );
    return c.json(view(created, true), 201);
  });

  const getOrCreate = async (c: Context<ApiEnv>, fingerprint: string | null) => {
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    const clientId = c.req.param('clientId') as string;
    if (typeof body.client_secret !== 'string') {
      return validationError(c, { resource: 'OauthAccess', field: 'client_secret', code: 'missing_field' });
    }
    if (clientId === state.app.clientId && body.client_secret !== state.app.clientSecret) {
      return validationError(c, { resource: 'OauthAccess', field: 'client_secret', code: 'invalid' });
    }
    const found = mine(login(c) as string).find(
      (a) => a.clientId === clientId && a.fingerprint === fingerprint,
    );
    if (found) return c.json(view(found, false), 200);
    return c.json(view(create(login(c) as string, clientId, body, fingerprint), true), 201);
  };
  app.put('/authorizations/clients/:clientId', (c) => getOrCreate(c, null));
  app.put('/authorizations/clients/:clientId/:fingerprint', (c) =>
    getOrCreate(c, c.req.param('fingerprint')),
  );

  const own = (c: Context<ApiEnv>) => {
    const found = state.authorizations.get(Number(c.req.param('id')));
    return found && found.login === login(c) ? found : undefined;
  };
  app.get('/authorizations/:id', (c) => {
    const found = own(c);
    return found ? c.json(view(found, false)) : basicError(c, 404, 'Not Found');
  });
  app.patch('/authorizations/:id', async (c) => {
    const found = own(c);
    if (!found) return basicError(c, 404, 'Not Found');
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    const keys = ['scopes', 'add_scopes', 'remove_scopes'].filter((k) => body[k] !== undefined);
    if (keys.length > 1) {
      return validationError(c, {
        resource: 'OauthAccess',
        code: 'custom',
        field: 'scopes',
        message: 'Only one of scopes, add_scopes or remove_scopes may be given.',
      });
    }
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
    if (body.scopes !== undefined) found.scopes = list(body.scopes);
    if (body.add_scopes !== undefined)
      found.scopes = [...new Set([...found.scopes, ...list(body.add_scopes)])];
    if (body.remove_scopes !== undefined)
      found.scopes = found.scopes.filter((s) => !list(body.remove_scopes).includes(s));
    if (typeof body.note === 'string') found.note = body.note;
    if (typeof body.note_url === 'string') found.noteUrl = body.note_url;
    if (typeof body.fingerprint === 'string') found.fingerprint = body.fingerprint;
    found.updatedAt = new Date().toISOString();
    const token = state.tokens.get(found.token);
    if (token) token.scopes = found.scopes;
    return c.json(view(found, false));
  });
  app.delete('/authorizations/:id', (c) => {
    const found = own(c);
    if (!found) return basicError(c, 404, 'Not Found');
    state.authorizations.delete(found.id);
    state.tokens.delete(found.token);
    return c.body(null, 204);
  });

  /** Grants: one per application the user authorized (authorizations or web-flow tokens). */
  const grants = (who: string) => {
    const byApp = new Map<string, { scopes: Set<string>; created: string; updated: string }>();
    const add = (clientId: string, scopes: string[], created: string, updated: string) => {
      const grant = byApp.get(clientId) ?? { scopes: new Set<string>(), created, updated };
      for (const s of scopes) grant.scopes.add(s);
      byApp.set(clientId, grant);
    };
    for (const a of mine(who)) add(a.clientId, a.scopes, a.createdAt, a.updatedAt);
    for (const t of state.tokens.values()) {
      if (
        t.login === who &&
        t.clientId &&
        ![...state.authorizations.values()].some((a) => a.token === t.token)
      ) {
        const at = new Date(t.createdAt).toISOString();
        add(t.clientId, t.scopes, at, at);
      }
    }
    return [...byApp.entries()].map(([clientId, g]) => ({
      id: grantId(clientId),
      url: `${state.apiUrl}/applications/grants/${grantId(clientId)}`,
      app: appInfo(clientId),
      created_at: g.created,
      updated_at: g.updated,
      scopes: [...g.scopes],
      clientId,
    }));
  };
  const strip = ({ clientId: _clientId, ...grant }: ReturnType<typeof grants>[number]) => grant;

  app.get('/applications/grants', (c) => {
    const paged = paginate(c, grants(login(c) as string));
    return 'error' in paged ? paged.error : c.json(paged.page.map(strip));
  });
  app.get('/applications/grants/:id', (c) => {
    const grant = grants(login(c) as string).find((g) => g.id === Number(c.req.param('id')));
    return grant ? c.json(strip(grant)) : basicError(c, 404, 'Not Found');
  });
  app.delete('/applications/grants/:id', (c) => {
    const who = login(c) as string;
    const grant = grants(who).find((g) => g.id === Number(c.req.param('id')));
    if (!grant) return basicError(c, 404, 'Not Found');
    for (const a of mine(who)) if (a.clientId === grant.clientId) state.authorizations.delete(a.id);
    for (const [value, t] of state.tokens)
      if (t.login === who && t.clientId === grant.clientId) state.tokens.delete(value);
    return c.body(null, 204);
  });

  return app;
}

/** A stable numeric id of an application's grant. */
function grantId(clientId: string): number {
  let hash = 0;
  for (const char of clientId) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_000;
  return 100_000 + hash;
}
