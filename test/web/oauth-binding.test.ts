/**
 * The OAuth start link over HTTP (the browser flow itself is in test/browser/oauth.test.ts): it
 * binds one browser with an HttpOnly, SameSite=Lax cookie scoped to the OAuth paths, works once,
 * and a callback without that cookie links nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import { silentLogger } from '../../src/log';
import { SourceLinker, type SourceLinkerDeps } from '../../src/web/oauth-flow';
import { startTestApp, type TestApp } from '../support/app';
import { slackUser, startAccountWeb } from '../support/oauth-web';

let t: TestApp;
let web: Awaited<ReturnType<typeof startAccountWeb>>;

beforeAll(async () => {
  t = await startTestApp();
  web = await startAccountWeb(t.app);
});
afterAll(async () => {
  await web?.close();
  await t?.close();
});

const linkOf = (card: Card | undefined) => card?.links?.[0]?.url as string;

describe('the OAuth start link', () => {
  it('redirects once to the authorize page with a bound cookie; a callback without it is refused (403), nothing linked', async () => {
    const [ask] = await t.say('/link source', { user: 'UHTTP' });
    const start = linkOf(ask);
    const state = start.split('/').at(-1) as string;
    const first = await fetch(start, { redirect: 'manual' });
    expect(first.status).toBe(302);
    const location = new URL(first.headers.get('location') as string);
    expect(location.pathname).toBe('/login/oauth/authorize');
    expect(location.searchParams.get('state')).toBe(state);
    const cookie = first.headers.get('set-cookie') as string;
    expect(cookie).toMatch(
      /^dh_link_[0-9a-f]{16}=[A-Za-z0-9_-]{43}; Path=\/oauth\/source\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
    );
    expect(Number(/Max-Age=(\d+)/.exec(cookie)?.[1])).toBeLessThanOrEqual(600);

    const second = await fetch(start, { redirect: 'manual' });
    expect(second.status).toBe(409);
    expect(await second.text()).toContain('Link already opened');

    const callback = await fetch(`${web.url}/oauth/source/callback?state=${state}&code=stolen`);
    expect(callback.status).toBe(403);
    expect(await callback.text()).toContain('Sign-in not started in this browser');
    expect(await t.app.services.accounts.credentials.source(slackUser('UHTTP'))).toBeUndefined();
    // The state is used up: the right browser coming late finds nothing either.
    const late = await fetch(`${web.url}/oauth/source/callback?state=${state}&code=stolen`, {
      headers: { cookie: cookie.split(';')[0] as string },
    });
    expect(late.status).toBe(400);
  });

  it('the cookie is Secure when PUBLIC_URL is https', () => {
    const linker = (url: string) =>
      new SourceLinker({ publicUrl: () => url, logger: silentLogger } as unknown as SourceLinkerDeps);
    expect(linker('https://deckhand.example').clearCookie('s'.repeat(43))).toMatch(/; Secure$/);
    expect(linker('http://127.0.0.1:8080').clearCookie('s'.repeat(43))).not.toContain('Secure');
  });
});
