import type { ChatUser } from '../../src/core/command';
import type { Card } from '../../src/core/reply';
import { silentLogger } from '../../src/log';
import { WebServer } from '../../src/web/server';
import type { App } from '../../src/wiring';
import { startTestApp, type TestApp } from './app';
import { closeAll, useStarted } from './started';

/** Deckhand's web server for a test app, at `url`. */
export interface AccountWeb {
  url: string;
  close(): Promise<void>;
}

/** Deckhand's web server for a test app, with the account routes, on a free loopback port. */
export async function startAccountWeb(app: App): Promise<AccountWeb> {
  const web = new WebServer(silentLogger);
  app.accounts.mount(web, app);
  const port = await web.listen(0, '127.0.0.1');
  app.accounts.listening(port);
  return { url: `http://127.0.0.1:${port}`, close: () => web.close() };
}

/** The first link of a card (a sign-in or secret-form link); fails the test when it has none. */
export function firstLinkOf(card: Card | undefined): string {
  const url = card?.links?.[0]?.url;
  if (!url) throw new Error(`no link on ${JSON.stringify(card)}`);
  return url;
}

/** The test app's Slack user `id` (workspace T1), as the vault and policy see them. */
export function slackUser(id: string): ChatUser {
  return { platform: 'slack', id, name: id, workspace: 'T1' };
}

/**
 * Links `user` to the sandbox account `login` with `scopes` directly in the vault (as a finished
 * OAuth flow would), for tests about what a linked account may do.
 */
export async function linkDirectly(
  app: App,
  user: ChatUser,
  login: string,
  scopes: string[],
): Promise<string> {
  const sandbox = app.emulators.sourcehost;
  if (!sandbox) throw new Error('no source host sandbox');
  const token = sandbox.controls.issueToken(login, scopes).token;
  await app.services.accounts.vault.put(user, 'source', { secret: { token }, meta: { login, scopes } });
  await app.services.accounts.pushCache.clear(user);
  return token;
}

/** What opening a start link over HTTP gave: the confirmation page's token and cookie. */
export interface StartConfirmation {
  status: number;
  html: string;
  /** The hidden `csrf` field of the page. */
  csrf: string | undefined;
  /** `name=value` of the confirmation cookie, as a browser would send it back. */
  cookie: string | undefined;
}

/** Opens a start link as a browser would (GET): the confirmation page, its token and its cookie. */
export async function openStartLink(url: string): Promise<StartConfirmation> {
  const response = await fetch(url, { redirect: 'manual' });
  const html = await response.text();
  return {
    status: response.status,
    html,
    csrf: /name="csrf" value="([^"]+)"/.exec(html)?.[1],
    cookie: response.headers.get('set-cookie')?.split(';')[0],
  };
}

/** Presses Continue on a start link's confirmation page (POST with its token, cookie and origin). */
export async function confirmStartLink(url: string, page: StartConfirmation): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(url).origin,
      ...(page.cookie ? { cookie: page.cookie } : {}),
    },
    body: new URLSearchParams({ csrf: page.csrf ?? '' }).toString(),
  });
}

/** A test app and its account web server, for tests over Deckhand's HTTP pages. */
export interface AccountWebApp {
  t: TestApp;
  web: AccountWeb;
}

/**
 * Starts a test app and its account web server before the file's tests, hands them to
 * `onStarted`, and closes both after the tests.
 */
export function useAccountWebApp(onStarted: (started: AccountWebApp) => void): void {
  useStarted(async () => {
    const t = await startTestApp();
    const web = await startAccountWeb(t.app);
    return { t, web, close: () => closeAll(web, t) };
  }, onStarted);
}
