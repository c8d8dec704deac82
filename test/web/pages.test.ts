/**
 * Deckhand's own HTML pages over HTTP: the security headers every page carries, and a secret-form
 * link sealed with a key Deckhand no longer has (SECRET_KEY changed) answering a clear 4xx page.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Sealer } from '../../src/store/sealer';
import type { TestApp } from '../support/app';
import { type AccountWeb, firstLinkOf, slackUser, useAccountWebApp } from '../support/oauth-web';

let t: TestApp;
let web: AccountWeb;

useAccountWebApp((started) => {
  ({ t, web } = started);
});

/** Re-seals the stored form behind `url` with another key, as if SECRET_KEY had changed since. */
async function resealWithAnotherKey(url: string): Promise<void> {
  const id = new URL(url).pathname.split('/').at(-1) as string;
  const prefix = t.app.services.config.REDIS_KEY_PREFIX;
  const key = `${prefix}secret-form:${createHash('sha256').update(id).digest('hex')}`;
  const redis = t.app.redis.redis;
  expect(await redis.exists(key)).toBe(1);
  const other = new Sealer({ current: randomBytes(32) });
  const session = { csrf: 'x', createdAt: Date.now(), kind: 'media', name: 'U', conversationId: 'c' };
  await redis.set(key, other.seal(JSON.stringify(session), key), 'KEEPTTL');
}

function expectPageHeaders(response: Response): void {
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(response.headers.get('cache-control')).toBe('no-store');
}

describe("Deckhand's HTML pages", () => {
  it('every page (form, expired form, OAuth result, forged post) is nosniff with a CSP and no referrer', async () => {
    const [card] = await t.say('/link media', { user: 'UHEAD' });
    const url = firstLinkOf(card);
    const pages = [
      await fetch(url),
      await fetch(`${web.url}/secrets/${'x'.repeat(32)}`),
      await fetch(`${web.url}/oauth/source/callback?state=${'s'.repeat(43)}&code=c`),
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'csrf=guess&apiKey=forged-key-123456',
      }),
    ];
    expect(pages.map((r) => r.status)).toEqual([200, 404, 400, 403]);
    for (const page of pages) expectPageHeaders(page);
    // The OAuth start link's confirmation page and its refused (forged) confirmation.
    const [ask] = await t.say('/link source', { user: 'UHEAD' });
    const start = firstLinkOf(ask);
    const confirm = await fetch(start);
    expect(confirm.status).toBe(200);
    expectPageHeaders(confirm);
    // Its form leads to the source host (Continue redirects there), and nowhere else.
    const authorizeOrigin = new URL(t.app.emulators.sourcehost?.webUrl ?? 'http://x').origin;
    expect(confirm.headers.get('content-security-policy')).toContain(
      `form-action 'self' ${authorizeOrigin};`,
    );
    const forged = await fetch(start, { method: 'POST', body: 'csrf=guess' });
    expect(forged.status).toBe(403);
    expectPageHeaders(forged);
    // JSON answers and unknown routes are nosniff too.
    const missing = await fetch(`${web.url}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a secret-form link opened after a SECRET_KEY change answers 410 "no longer valid", not 500; nothing stored', async () => {
    const [fresh] = await t.say('/link media', { user: 'UKEY' });
    // Positive control: the link opens before the key changes.
    expect((await fetch(firstLinkOf(fresh))).status).toBe(200);
    const [card] = await t.say('/link media', { user: 'UKEY' });
    const url = firstLinkOf(card);
    await resealWithAnotherKey(url);
    const page = await fetch(url);
    expect(page.status).toBe(410);
    expectPageHeaders(page);
    const html = await page.text();
    expect(html).toContain('Link no longer valid');
    expect(html).toContain('Run the /link command in the chat again to get a new one.');
    const posted = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=x&apiKey=media-key-0123456789abcdef',
    });
    expect(posted.status).toBe(410);
    expect(await t.app.services.accounts.credentials.media(slackUser('UKEY'))).toBeUndefined();
  });
});
