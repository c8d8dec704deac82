import { type SourcehostSandbox, startSourcehostSandbox } from '@deckhand/sandbox/sourcehost';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  missingScopes,
  OAuthTokenError,
  pkcePair,
  RateLimitedError,
  SourcehostFactory,
} from '../../src/services/sourcehost';

let sandbox: SourcehostSandbox;
let factory: SourcehostFactory;
const slept: number[] = [];
let token: string;

beforeAll(async () => {
  sandbox = await startSourcehostSandbox({ stepMs: 10 });
  factory = new SourcehostFactory({
    apiUrl: sandbox.apiUrl,
    webUrl: sandbox.webUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    maxWaitMs: 5_000,
    sleep: async (ms) => {
      slept.push(ms);
    },
  });
  token = sandbox.controls.issueToken('mona', ['repo', 'admin:org']).token;
});
afterAll(async () => {
  await factory.close();
  await sandbox.close();
});

describe('source host client', () => {
  it('remembers the rate-limit window of each token from the answers', async () => {
    const me = await factory.forToken(token).account.me();
    expect(me.login).toBe('mona');
    expect(factory.window(token)).toMatchObject({ limit: 5000, remaining: expect.any(Number) });
    expect(factory.window(token)?.remaining).toBeLessThan(5000);
  });

  it('waits out a secondary limit for its Retry-After, then retries', async () => {
    slept.length = 0;
    sandbox.controls.secondaryLimit(1, 2);
    const repo = await factory.forToken(token).account.repository('toolforge-repos', 'mytool');
    expect(repo.permissions?.push).toBe(true);
    expect(slept).toEqual([2000]);
  });

  it('refuses when a secondary limit asks for longer than it may wait, saying until when', async () => {
    sandbox.controls.secondaryLimit(3, 120);
    const error = await factory
      .forToken(token)
      .account.me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).kind).toBe('secondary');
    expect((error as Error).message).toMatch(/slow down \(secondary rate limit\) until \d\d:\d\d/);
    sandbox.controls.secondaryLimit(0, 1);
  });

  it('sends the preview Accept type on migration reads and pages with per_page/page', async () => {
    const client = factory.forToken(token);
    const owner = { kind: 'org' as const, org: 'toolforge-repos' };
    for (const repo of ['mytool', 'demo', 'mytool'])
      await client.migrations.start(owner, { repositories: [repo] });
    const all = await client.migrations.list(owner, { perPage: 2 });
    expect(all.length).toBeGreaterThanOrEqual(3);
    const second = await client.migrations.list(owner, { perPage: 2, page: 2 });
    expect(second).toHaveLength(Math.min(2, all.length - 2));
    expect(second[0]?.id).toBe(all[2]?.id);
  });

  it('exchanges a code with PKCE and reads the granted scopes; errors that come with HTTP 200 are errors', async () => {
    const oauth = factory.oauth as NonNullable<typeof factory.oauth>;
    const { verifier, challenge } = pkcePair();
    const redirectUri = 'http://127.0.0.1:1234/oauth/source/callback';
    const url = new URL(
      oauth.authorizeUrl({
        redirectUri,
        scopes: ['read:user', 'repo'],
        state: 'st',
        codeChallenge: challenge,
      }),
    );
    expect(url.pathname).toBe('/login/oauth/authorize');
    const form = new URLSearchParams({
      client_id: sandbox.clientId,
      redirect_uri: redirectUri,
      state: 'st',
      code_challenge: challenge,
      login: 'hubot',
      decision: 'approve',
      scope: 'read:user',
    });
    const answer = await fetch(`${sandbox.webUrl}/login/oauth/authorize`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    const code = new URL(answer.headers.get('location') as string).searchParams.get('code') as string;
    const granted = await oauth.exchange({ code, redirectUri, codeVerifier: verifier });
    expect(granted.scopes).toEqual(['read:user']);
    expect(missingScopes(granted.scopes, ['read:user', 'repo'])).toEqual(['repo']);
    expect((await factory.forToken(granted.accessToken).account.me()).login).toBe('hubot');
    const again = await oauth
      .exchange({ code, redirectUri, codeVerifier: verifier })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(OAuthTokenError);
    expect((again as OAuthTokenError).error).toBe('bad_verification_code');
    expect(oauth.revokeUrl()).toBe(`${sandbox.webUrl}/settings/connections/applications/${sandbox.clientId}`);
  });

  it('implements the legacy authorizations API with a password (no chat command offers it)', async () => {
    const legacy = factory.withPassword('mona', 'sandbox-password-mona');
    const created = await legacy.create({ scopes: ['gist'], note: 'legacy' });
    expect(created.token).toMatch(/^gho_/);
    expect((await legacy.list()).find((a) => a.id === created.id)?.token).toBe('');
    const updated = await legacy.update(created.id, { add_scopes: ['repo'] });
    expect(updated.scopes).toEqual(['gist', 'repo']);
    await legacy.delete(created.id);
    await expect(factory.withPassword('mona', 'wrong').list()).rejects.toThrow(/Bad credentials/);
  });
});
