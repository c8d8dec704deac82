/**
 * The secret page's verdict on a credential is in the page reader's language (the browser's), and
 * what the conversation is told once it is stored is in the conversation's (`/language --here`).
 */

import { SANDBOX_MEDIA_KEY } from '@deckhand/sandbox/media';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { firstLinkOf, useAccountWebApp } from '../support/oauth-web';

let t: TestApp;

useAccountWebApp((started) => {
  ({ t } = started);
});

/** Submits the form as a browser in `language` would; the page's status and text. */
async function submit(url: string, fields: Record<string, string>, language: string) {
  const page = await fetch(url, { headers: { 'accept-language': language } });
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  const cookie = /dh_csrf=[^;]+/.exec(page.headers.get('set-cookie') ?? '')?.[0];
  if (!csrf || !cookie) throw new Error('no CSRF token on the page');
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'accept-language': language,
      cookie,
    },
    body: new URLSearchParams({ csrf, ...fields }).toString(),
  });
  return { status: response.status, html: await response.text() };
}

describe('the secret page in its readers’ languages', () => {
  it('refuses a wrong key in German for a German browser, and tells a Hebrew conversation in Hebrew', async () => {
    const languages = t.app.services.languages;
    if (!languages) throw new Error('no language store');
    const [card] = await t.say('/link media', { user: 'UWORDS' });
    await languages.setConversation('slack:T1:C1', 'he');
    try {
      const url = firstLinkOf(card);
      const refused = await submit(url, { apiKey: 'wrong-media-key-0000' }, 'de-DE,de;q=0.9');
      expect(refused.status).toBe(422);
      expect(refused.html).toContain('Der Medien-Host hat diesen API-Schlüssel abgelehnt');
      expect(refused.html).not.toContain('The media host refused this API key');

      const saved = await submit(url, { apiKey: SANDBOX_MEDIA_KEY }, 'de');
      expect(saved.status).toBe(200);
      const told = JSON.stringify(t.transcript.posted);
      expect(told).toContain('דרך טופס הסודות');
      expect(told).not.toContain('UWORDS stored a media API key through the secret form.');
    } finally {
      await languages.setConversation('slack:T1:C1', undefined);
    }
  });
});
