import { createHash, createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type SourcehostSandbox, startSourcehostSandbox } from '@deckhand/sandbox/sourcehost';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Exchange, expectConforms, type LoadedSpec, loadSpec, recordExchange } from '../support/openapi';
import { waitFor } from '../support/wait';

let sandbox: SourcehostSandbox;
let spec: LoadedSpec;
let token: string;
const UA = { 'user-agent': 'deckhand-test', 'x-github-api-version': '2022-11-28' };
const PREVIEW = 'application/vnd.github.wyandotte-preview+json';

beforeAll(async () => {
  sandbox = await startSourcehostSandbox({
    stepMs: 10,
    callbackUrl: 'http://127.0.0.1/oauth/source/callback',
  });
  spec = await loadSpec('sourcehost/github-subset-openapi.json');
  token = sandbox.controls.issueToken('mona', ['repo', 'admin:org', 'read:user']).token;
});
afterAll(async () => {
  await sandbox.close();
});

const auth = (accept = 'application/vnd.github.v3+json') => ({
  ...UA,
  accept,
  authorization: `Bearer ${token}`,
});
const api = (path: string, options: Parameters<typeof recordExchange>[2] = {}) =>
  recordExchange(sandbox.apiUrl, path, { headers: auth(), ...options });

async function conforms(exchange: Exchange): Promise<Exchange> {
  await expectConforms(spec, exchange);
  return exchange;
}

describe('source host sandbox: the REST API follows the spec', () => {
  it('rate_limit: every category and the old rate object, with the rate-limit headers on answers', async () => {
    const exchange = await conforms(await api('/rate_limit'));
    const body = exchange.body as { resources: Record<string, unknown>; rate: unknown };
    expect(Object.keys(body.resources)).toEqual(
      expect.arrayContaining(['core', 'search', 'graphql', 'integration_manifest']),
    );
    const response = await fetch(`${sandbox.apiUrl}/user`, { headers: auth() });
    expect(response.headers.get('x-ratelimit-limit')).toBe('5000');
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThan(5000);
    expect(response.headers.get('x-ratelimit-resource')).toBe('core');
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('refuses a request without User-Agent, an unknown API version and a bad token', async () => {
    const noAgent = await fetch(`${sandbox.apiUrl}/user`, { headers: { 'user-agent': '' } });
    expect([403]).toContain(noAgent.status);
    const badVersion = await recordExchange(sandbox.apiUrl, '/rate_limit', {
      headers: { ...UA, 'x-github-api-version': '1999-01-01' },
    });
    expect(badVersion.status).toBe(400);
    const bad = await recordExchange(sandbox.apiUrl, '/user/migrations', {
      headers: { ...UA, accept: PREVIEW, authorization: 'Bearer gho_nope' },
    });
    expect(bad.status).toBe(401);
    await expectConforms(spec, bad);
  });

  it('org migrations: start, list, status, repositories, archive, delete archive, unlock', async () => {
    const start = await conforms(
      await api('/orgs/toolforge-repos/migrations', {
        method: 'POST',
        body: { repositories: ['mytool'], lock_repositories: true, exclude_attachments: true },
      }),
    );
    expect(start.status).toBe(201);
    const id = (start.body as { id: number }).id;
    const preview = { headers: auth(PREVIEW) };
    const exported = await waitFor(async () => {
      const status = await api(`/orgs/toolforge-repos/migrations/${id}`, preview);
      return (status.body as { state: string }).state === 'exported' ? status : undefined;
    });
    await conforms(exported);
    const list = await conforms(await api('/orgs/toolforge-repos/migrations?per_page=1&page=1', preview));
    expect((list.body as { id: number }[])[0]?.id).toBe(id);
    await conforms(await api(`/orgs/toolforge-repos/migrations/${id}/repositories`, preview));
    const archive = await conforms(await api(`/orgs/toolforge-repos/migrations/${id}/archive`, preview));
    expect(archive.status).toBe(302);
    await conforms(
      await api(`/orgs/toolforge-repos/migrations/${id}/repos/mytool/lock`, { ...preview, method: 'DELETE' }),
    );
    const again = await conforms(
      await api(`/orgs/toolforge-repos/migrations/${id}/repos/mytool/lock`, { ...preview, method: 'DELETE' }),
    );
    expect(again.status).toBe(404);
    const deleted = await conforms(
      await api(`/orgs/toolforge-repos/migrations/${id}/archive`, { ...preview, method: 'DELETE' }),
    );
    expect(deleted.status).toBe(204);
    expect((await api(`/orgs/toolforge-repos/migrations/${id}/archive`, preview)).status).toBe(404);
  });

  it('user migrations: validation errors, start, status; a repository named fail* fails', async () => {
    const invalid = await conforms(
      await api('/user/migrations', { method: 'POST', body: { repositories: ['nope/nothing'] } }),
    );
    expect(invalid.status).toBe(422);
    const start = await conforms(
      await api('/user/migrations', { method: 'POST', body: { repositories: ['mona/notes'] } }),
    );
    const id = (start.body as { id: number }).id;
    await conforms(await api(`/user/migrations/${id}`, { headers: auth(PREVIEW) }));
    await conforms(await api('/user/migrations', { headers: auth(PREVIEW) }));
    const missingPreview = await api(`/user/migrations/${id}`);
    expect(missingPreview.status).toBe(415);
  });

  it('source imports: start, status, authors, map an author, large files, lfs, cancel', async () => {
    const started = await api('/repos/mona/legacy-svn/import', {
      method: 'PUT',
      body: { vcs_url: 'https://svn.example.org/large-project', vcs: 'subversion' },
    });
    await conforms(started);
    expect(started.status).toBe(201);
    const mapped = await waitFor(async () => {
      const status = await api('/repos/mona/legacy-svn/import');
      return ['mapping', 'pushing', 'complete'].includes((status.body as { status: string }).status)
        ? status
        : undefined;
    });
    await conforms(mapped);
    const authors = await conforms(await api('/repos/mona/legacy-svn/import/authors'));
    const first = (authors.body as { id: number }[])[0] as { id: number };
    await conforms(await api(`/repos/mona/legacy-svn/import/authors?since=${first.id}`));
    await conforms(await api('/repos/mona/legacy-svn/import/large_files'));
    await waitFor(async () =>
      ((await api('/repos/mona/legacy-svn/import')).body as { status: string }).status === 'complete'
        ? true
        : undefined,
    );
    const late = await conforms(
      await api(`/repos/mona/legacy-svn/import/authors/${first.id}`, {
        method: 'PATCH',
        body: { email: 'a@example.org' },
      }),
    );
    expect(late.status).toBe(422);
    // A request the spec forbids on purpose: only the answer is checked.
    const { request: _invalid, ...badLfs } = await api('/repos/mona/legacy-svn/import/lfs', {
      method: 'PATCH',
      body: { use_lfs: 'maybe' },
    });
    await conforms(badLfs);
    expect(badLfs.status).toBe(422);
    await conforms(
      await api('/repos/mona/legacy-svn/import/lfs', { method: 'PATCH', body: { use_lfs: 'opt_in' } }),
    );
    await conforms(await api('/repos/mona/legacy-svn/import', { method: 'PATCH', body: {} }));
    const cancelled = await conforms(await api('/repos/mona/legacy-svn/import', { method: 'DELETE' }));
    expect(cancelled.status).toBe(204);
    expect((await api('/repos/mona/legacy-svn/import')).status).toBe(404);
  });

  it('legacy authorizations and grants take a password (Basic) only', async () => {
    const basic = {
      ...UA,
      authorization: `Basic ${Buffer.from('mona:sandbox-password-mona').toString('base64')}`,
    };
    const withToken = await recordExchange(sandbox.apiUrl, '/authorizations', { headers: auth() });
    expect(withToken.status).toBe(401);
    const created = await conforms(
      await recordExchange(sandbox.apiUrl, '/authorizations', {
        method: 'POST',
        headers: basic,
        body: { scopes: ['public_repo'], note: 'ci' },
      }),
    );
    expect(created.status).toBe(201);
    expect((created.body as { token: string }).token).toMatch(/^gho_/);
    const id = (created.body as { id: number }).id;
    const list = await conforms(await recordExchange(sandbox.apiUrl, '/authorizations', { headers: basic }));
    expect((list.body as { token: string }[]).every((a) => a.token === '')).toBe(true);
    const body = { client_secret: sandbox.clientSecret, scopes: ['repo'], note: 'deckhand' };
    const first = await conforms(
      await recordExchange(sandbox.apiUrl, `/authorizations/clients/${sandbox.clientId}`, {
        method: 'PUT',
        headers: basic,
        body,
      }),
    );
    expect(first.status).toBe(201);
    const second = await conforms(
      await recordExchange(sandbox.apiUrl, `/authorizations/clients/${sandbox.clientId}`, {
        method: 'PUT',
        headers: basic,
        body,
      }),
    );
    expect(second.status).toBe(200);
    await conforms(
      await recordExchange(sandbox.apiUrl, `/authorizations/clients/${sandbox.clientId}/laptop`, {
        method: 'PUT',
        headers: basic,
        body,
      }),
    );
    const twoKeys = await conforms(
      await recordExchange(sandbox.apiUrl, `/authorizations/${id}`, {
        method: 'PATCH',
        headers: basic,
        body: { add_scopes: ['gist'], remove_scopes: ['x'] },
      }),
    );
    expect(twoKeys.status).toBe(422);
    await conforms(
      await recordExchange(sandbox.apiUrl, `/authorizations/${id}`, {
        method: 'PATCH',
        headers: basic,
        body: { add_scopes: ['gist'] },
      }),
    );
    await conforms(await recordExchange(sandbox.apiUrl, `/authorizations/${id}`, { headers: basic }));
    const grants = await conforms(
      await recordExchange(sandbox.apiUrl, '/applications/grants', { headers: basic }),
    );
    const grant = (grants.body as { id: number; app: { client_id: string } }[]).find(
      (g) => g.app.client_id === sandbox.clientId,
    );
    expect(grant).toBeDefined();
    await conforms(
      await recordExchange(sandbox.apiUrl, `/applications/grants/${grant?.id}`, { headers: basic }),
    );
    await conforms(
      await recordExchange(sandbox.apiUrl, `/applications/grants/${grant?.id}`, {
        method: 'DELETE',
        headers: basic,
      }),
    );
    await conforms(
      await recordExchange(sandbox.apiUrl, `/authorizations/${id}`, { method: 'DELETE', headers: basic }),
    );
  });
});

describe('source host sandbox: the OAuth web flow', () => {
  const verifier = 'a-pkce-verifier-that-is-long-enough-0123456789';
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  async function authorize(params: Record<string, string>, decision = 'approve', scopes = ['repo']) {
    const query = new URLSearchParams({ client_id: sandbox.clientId, state: 's1', ...params });
    const page = await fetch(`${sandbox.webUrl}/login/oauth/authorize?${query}`, { redirect: 'manual' });
    if (page.status !== 200) return page;
    const form = new URLSearchParams({ client_id: sandbox.clientId, state: 's1', login: 'mona', decision });
    if (params.redirect_uri) form.set('redirect_uri', params.redirect_uri);
    if (params.code_challenge) form.set('code_challenge', params.code_challenge);
    for (const scope of scopes) form.append('scope', scope);
    return fetch(`${sandbox.webUrl}/login/oauth/authorize`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
  }

  const exchange = async (fields: Record<string, string>, accept = 'application/json'): Promise<Exchange> => {
    const form = { client_id: sandbox.clientId, client_secret: sandbox.clientSecret, ...fields };
    const headers = { accept, 'content-type': 'application/x-www-form-urlencoded' };
    const recorded = await recordExchange(sandbox.webUrl, '/login/oauth/access_token', {
      method: 'POST',
      headers,
      body: new URLSearchParams(form).toString(),
    });
    // The request is checked as the form fields it carries.
    return { ...recorded, request: { body: form, headers } };
  };

  it('approve → code; the exchange answers JSON, form or XML by Accept, and the code works once', async () => {
    const redirect = 'http://127.0.0.1:45678/oauth/source/callback';
    const answer = await authorize({
      redirect_uri: redirect,
      scope: 'repo user:email',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') as string);
    expect(location.origin + location.pathname).toBe(redirect);
    expect(location.searchParams.get('state')).toBe('s1');
    const code = location.searchParams.get('code') as string;
    const json = await exchange({ code, redirect_uri: redirect, code_verifier: verifier });
    await expectConforms(spec, json);
    expect(json.body).toMatchObject({ scope: 'repo', token_type: 'bearer' });
    const replayed = await exchange({ code, redirect_uri: redirect, code_verifier: verifier });
    expect(replayed.status).toBe(200);
    expect(replayed.body).toMatchObject({ error: 'bad_verification_code' });
    await expectConforms(spec, replayed);

    const second = new URL(
      (await authorize({ redirect_uri: redirect })).headers.get('location') as string,
    ).searchParams.get('code') as string;
    const form = await exchange({ code: second }, '*/*');
    expect(form.contentType).toContain('application/x-www-form-urlencoded');
    expect(new URLSearchParams(form.body as string).get('access_token')).toMatch(/^gho_/);
    const third = new URL(
      (await authorize({ redirect_uri: redirect })).headers.get('location') as string,
    ).searchParams.get('code') as string;
    const xml = await exchange({ code: third }, 'application/xml');
    expect(xml.body).toMatch(
      /^<OAuth><access_token>gho_\w+<\/access_token><scope>repo<\/scope><token_type>bearer<\/token_type><\/OAuth>$/,
    );
  });

  it('token endpoint errors come with HTTP 200: bad credentials, redirect mismatch, wrong PKCE verifier', async () => {
    const redirect = 'http://127.0.0.1:45678/oauth/source/callback';
    const code = () =>
      authorize({ redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256' }).then(
        (r) => new URL(r.headers.get('location') as string).searchParams.get('code') as string,
      );
    const badSecret = await exchange({ code: await code(), client_secret: 'wrong', code_verifier: verifier });
    expect(badSecret.body).toMatchObject({ error: 'incorrect_client_credentials' });
    const mismatch = await exchange({
      code: await code(),
      redirect_uri: 'http://127.0.0.1:1/other',
      code_verifier: verifier,
    });
    expect(mismatch.body).toMatchObject({ error: 'redirect_uri_mismatch' });
    const pkce = await exchange({
      code: await code(),
      redirect_uri: redirect,
      code_verifier: 'not-the-verifier',
    });
    expect(pkce.body).toMatchObject({ error: 'bad_verification_code' });
    for (const answer of [badSecret, mismatch, pkce]) {
      expect(answer.status).toBe(200);
      await expectConforms(spec, answer);
    }
  });

  it('authorize errors are redirects to the callback: denied, redirect_uri mismatch, suspended application', async () => {
    const redirect = 'http://127.0.0.1:45678/oauth/source/callback/sub';
    const denied = new URL(
      (await authorize({ redirect_uri: redirect }, 'deny')).headers.get('location') as string,
    );
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('s1');
    const outside = await authorize({ redirect_uri: 'http://127.0.0.1:45678/elsewhere' });
    const mismatch = new URL(outside.headers.get('location') as string);
    expect(mismatch.pathname).toBe('/oauth/source/callback');
    expect(mismatch.searchParams.get('error')).toBe('redirect_uri_mismatch');
    const otherHost = await authorize({ redirect_uri: 'http://evil.example/oauth/source/callback' });
    expect(new URL(otherHost.headers.get('location') as string).searchParams.get('error')).toBe(
      'redirect_uri_mismatch',
    );
    sandbox.controls.suspendApp(true);
    try {
      const suspended = new URL(
        (await authorize({ redirect_uri: redirect })).headers.get('location') as string,
      );
      expect(suspended.searchParams.get('error')).toBe('application_suspended');
    } finally {
      sandbox.controls.suspendApp(false);
    }
    const plain = await authorize({ code_challenge: challenge, code_challenge_method: 'plain' });
    expect(plain.status).toBe(400);
  });
});

describe('source host sandbox: webhooks', () => {
  let server: Server;
  const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    sandbox.controls.addHook(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
      'hook-secret-0123456789',
    );
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });

  it('a finished import is delivered as repository_import, signed with the hook secret', async () => {
    sandbox.controls.startImport('toolforge-repos/demo', 'https://svn.example.org/demo', 'mona');
    const delivery = await waitFor(() =>
      received.find((r) => r.headers['x-github-event'] === 'repository_import'),
    );
    expect(delivery.headers['x-hub-signature-256']).toBe(
      `sha256=${createHmac('sha256', 'hook-secret-0123456789').update(delivery.body).digest('hex')}`,
    );
    expect(delivery.headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivery.headers['user-agent']).toMatch(/^GitHub-Hookshot\//);
    const payload = JSON.parse(delivery.body);
    expect(payload).toMatchObject({
      status: 'success',
      repository: { full_name: 'toolforge-repos/demo' },
      sender: { login: 'mona' },
    });
    const schema = (spec.document as { 'x-webhooks': Record<string, unknown> })['x-webhooks'][
      'repository-import'
    ];
    expect(schema).toBeDefined();
  });
});
