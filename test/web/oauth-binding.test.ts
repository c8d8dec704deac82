/**
 * The OAuth start link over HTTP (the browser flow itself is in test/browser/oauth.test.ts): opening
 * it shows whose link it is and binds nothing; confirming it (a POST with the page's anti-forgery
 * token) binds one browser with an HttpOnly, SameSite=Lax cookie scoped to the OAuth paths, works
 * once, and a callback without that cookie links nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import { silentLogger } from '../../src/log';
import { SourceLinker, type SourceLinkerDeps } from '../../src/web/oauth-flow';
import type { TestApp } from '../support/app';
import {
  type AccountWeb,
  confirmStartLink,
  openStartLink,
  slackUser,
  useAccountWebApp,
} from '../support/oauth-web';

let t: TestApp;
let web: AccountWeb;

useAccountWebApp((started) => {
  ({ t, web } = started);
});

const linkOf = (card: Card | undefined) => card?.links?.[0]?.url as string;

describe('the OAuth start link', () => {
  it('redirects once to the authorize page with a bound cookie; a callback without it is refused (403), nothing linked', async () => {
    const [ask] = await t.say('/link source', { user: 'UHTTP' });
    const start = linkOf(ask);
    const state = start.split('/').at(-1) as string;
    const page = await openStartLink(start);
    expect(page.status).toBe(200);
    expect(page.html).toContain('You are linking your source-host account to');
    expect(page.cookie).toMatch(/^dh_confirm=[A-Za-z0-9_-]{43}$/);
    const first = await confirmStartLink(start, page);
    expect(first.status).toBe(303);
    const location = new URL(first.headers.get('location') as string);
    expect(location.pathname).toBe('/login/oauth/authorize');
    expect(location.searchParams.get('state')).toBe(state);
    const cookie = first.headers.getSetCookie().find((c) => c.startsWith('dh_link_')) as string;
    expect(cookie).toMatch(
      /^dh_link_[0-9a-f]{16}=[A-Za-z0-9_-]{43}; Path=\/oauth\/source\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
    );
    expect(Number(/Max-Age=(\d+)/.exec(cookie)?.[1])).toBeLessThanOrEqual(600);

    const second = await fetch(start, { redirect: 'manual' });
    expect(second.status).toBe(409);
    expect(await second.text()).toContain('Link already opened');
    const again = await confirmStartLink(start, page);
    expect(again.status).toBe(409);

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

  it('a forwarded start link names who asked for it and binds nothing when opened; forged confirmations are refused', async () => {
    const [ask] = await t.say('/link source', { user: 'UMALLORY' });
    const start = linkOf(ask);
    // The victim opens the link Mallory forwarded: it says whose link it is, and nothing is used up.
    const seen = await openStartLink(start);
    expect(seen.status).toBe(200);
    expect(seen.html).toContain(
      'You are linking your source-host account to <strong id="requester">Slack user UMALLORY in workspace T1</strong>; continue only if that is you.',
    );
    expect(seen.html).toContain('If someone sent you this link, do not continue');
    const reopened = await openStartLink(start);
    expect(reopened.status).toBe(200);
    // A page elsewhere posting the confirmation in the victim's browser: no token, a wrong token,
    // another origin. All refused; none binds the link.
    const forged = [
      await confirmStartLink(start, { ...seen, cookie: undefined, csrf: undefined }),
      await confirmStartLink(start, { ...seen, csrf: reopened.csrf }),
      await fetch(start, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'http://evil.example',
          cookie: seen.cookie as string,
        },
        body: new URLSearchParams({ csrf: seen.csrf as string }).toString(),
      }),
    ];
    expect(forged.map((r) => r.status)).toEqual([403, 403, 403]);
    expect(await forged[0]?.text()).toContain('Confirmation refused');
    expect(forged.every((r) => r.headers.get('location') === null)).toBe(true);
    // Positive control: the link was not used up by any of them; a genuine confirmation redirects.
    const genuine = await confirmStartLink(start, reopened);
    expect(genuine.status).toBe(303);
    expect(new URL(genuine.headers.get('location') as string).pathname).toBe('/login/oauth/authorize');
    expect(await t.app.services.accounts.credentials.source(slackUser('UMALLORY'))).toBeUndefined();
  });

  it('the cookie is Secure when PUBLIC_URL is https', () => {
    const linker = (url: string) =>
      new SourceLinker({ publicUrl: () => url, logger: silentLogger } as unknown as SourceLinkerDeps);
    expect(linker('https://deckhand.example').clearCookie('s'.repeat(43))).toMatch(/; Secure$/);
    expect(linker('http://127.0.0.1:8080').clearCookie('s'.repeat(43))).not.toContain('Secure');
  });
});
