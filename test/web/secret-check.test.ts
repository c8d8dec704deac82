/**
 * The one-time secret page checks a credential with its service before storing it, as `/link` does
 * in chat: a refused one is not stored, the form stays open with the reason and the chat is not told;
 * a service that cannot be asked stores nothing either and the page says it is the service.
 */

import { SANDBOX_MEDIA_KEY } from '@deckhand/sandbox/media';
import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { describe, expect, it } from 'vitest';
import type { VaultService } from '../../src/store/vault';
import type { TestApp } from '../support/app';
import { firstLinkOf, slackUser, useAccountWebApp } from '../support/oauth-web';

let t: TestApp;

useAccountWebApp((started) => {
  ({ t } = started);
});

const stored = (user: string, key: VaultService) => t.app.services.accounts.vault.get(slackUser(user), key);
const chat = () => JSON.stringify(t.transcript.posted);

/** Opens the page as a browser would: its CSRF field and cookie. */
async function open(url: string): Promise<{ csrf: string; cookie: string }> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  const cookie = /dh_csrf=[^;]+/.exec(page.headers.get('set-cookie') ?? '')?.[0];
  if (!csrf || !cookie) throw new Error('no CSRF token on the page');
  return { csrf, cookie };
}

/** Submits the form; the page's status and text. */
async function submit(url: string, fields: Record<string, string>) {
  const { csrf, cookie } = await open(url);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ csrf, ...fields }).toString(),
  });
  return { status: response.status, html: await response.text() };
}

describe('the secret page checks the credential with its service', () => {
  it('a wrong media key: not stored, the page says why and stays open, the chat is not told; the right key is stored', async () => {
    const [card] = await t.say('/link media', { user: 'UPAGE', private: true });
    const url = firstLinkOf(card);
    const refused = await submit(url, { apiKey: 'wrong-media-key-0000' });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('The media host refused this API key, so nothing was stored');
    expect(refused.html).toContain('(Invalid key)');
    expect(refused.html).toContain('Please correct the value below.');
    expect(refused.html).not.toContain('wrong-media-key-0000');
    expect(await stored('UPAGE', 'media')).toBeUndefined();
    expect(chat()).not.toContain('through the secret form');

    const saved = await submit(url, { apiKey: SANDBOX_MEDIA_KEY });
    expect(saved.status).toBe(200);
    expect(saved.html).toContain('Saved');
    expect((await stored('UPAGE', 'media'))?.secret.apiKey).toBe(SANDBOX_MEDIA_KEY);
    expect(chat()).toContain('UPAGE stored a media API key through the secret form.');
    expect(chat()).not.toContain(SANDBOX_MEDIA_KEY);
  });

  it('the service down: nothing stored, the page says it is the service; once it is back the token is stored', async () => {
    const sandbox = t.app.emulators.toolhost as ToolhostSandbox;
    const token = sandbox.deployTokenFor('mytool') as string;
    const [card] = await t.say('/link tool mytool', { user: 'UDOWN', private: true });
    const url = firstLinkOf(card);
    sandbox.controls.setUnhealthy('components', 'database down');
    try {
      const down = await submit(url, { token });
      expect(down.status).toBe(422);
      expect(down.html).toContain(
        'Could not check the deploy token: the tool platform is not answering properly',
      );
      expect(down.html).toContain('This is the service, not your value');
      expect(down.html).not.toContain('refused');
      expect(await stored('UDOWN', 'tool:mytool')).toBeUndefined();
    } finally {
      sandbox.controls.setUnhealthy('components', undefined);
    }
    const saved = await submit(url, { token });
    expect(saved.status).toBe(200);
    expect((await stored('UDOWN', 'tool:mytool'))?.secret.token).toBe(token);
  });
});
