import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_MEDIA_KEY } from '@deckhand/sandbox/media';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { firstLinkOf, slackUser, startAccountWeb } from '../support/oauth-web';
import { waitFor } from '../support/wait';
import { launchChromium } from './chromium';

let t: TestApp;
let web: Awaited<ReturnType<typeof startAccountWeb>>;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;

beforeAll(async () => {
  t = await startTestApp();
  web = await startAccountWeb(t.app);
  browser = await launchChromium();
  context = browser.context;
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.close();
});

const posted = () => t.transcript.posted.map((c) => [c.title, c.text].join(' ')).join('\n');
const linkedSource = (user: string) => t.app.services.accounts.credentials.source(slackUser(user));

/**
 * Opens Deckhand's start link and confirms it: the page names who asked for the link; Continue binds
 * the browser (cookie) and sends it on to the authorize page.
 */
async function openStart(url: string, requester?: string) {
  const page: Page = await context.newPage();
  await page.goto(url);
  expect(await page.textContent('h1')).toBe('Link your source-host account?');
  if (requester) expect(await page.textContent('#requester')).toBe(requester);
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/login/oauth/authorize'),
    page.getByRole('button', { name: 'Continue to the source host' }).click(),
  ]);
  expect(await page.textContent('h1')).toContain('Authorize Deckhand (sandbox)');
  return { page, authorizeUrl: new URL(page.url()) };
}

/** On the authorize page: picks the account, unticks `drop` scopes, and presses a button. */
async function press(
  page: Page,
  button: 'Approve' | 'Deny',
  options: { login?: string; drop?: string[] } = {},
) {
  await page.getByLabel('Signed in as').selectOption(options.login ?? 'mona');
  for (const scope of options.drop ?? []) await page.getByLabel(scope).uncheck();
  await Promise.all([page.waitForURL(`${web.url}/**`), page.getByRole('button', { name: button }).click()]);
  return page;
}

/** Opens the start link, then decides on the authorize page. */
async function decide(
  url: string,
  button: 'Approve' | 'Deny',
  options: { login?: string; drop?: string[] } = {},
) {
  const { page } = await openStart(url);
  return press(page, button, options);
}

const startLink = () => new RegExp(`^${web.url}/oauth/source/start/[A-Za-z0-9_-]{43}$`);

describe('linking a source-host account in the browser', () => {
  it('/source migration list @me → authorize page → Approve → success page; the chat gets the login and the command is replayed', async () => {
    const [ask] = await t.say('/source migration list @me', { user: 'UAPPROVE' });
    expect(ask?.visibility).toBe('private');
    expect(ask?.text).toContain('not linked yet');
    // The chat hands out Deckhand's own start link, which redirects to the authorize page.
    expect(firstLinkOf(ask)).toMatch(startLink());
    const { page: authorize, authorizeUrl: url } = await openStart(
      firstLinkOf(ask),
      'Slack user UAPPROVE in workspace T1',
    );
    expect(url.searchParams.get('client_id')).toBe(t.app.emulators.sourcehost?.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(`${web.url}/oauth/source/callback`);
    expect(url.searchParams.get('scope')).toBe('read:user repo');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe(firstLinkOf(ask).split('/').at(-1));
    const cookies = await context.cookies(`${web.url}/oauth/source/callback`);
    expect(cookies).toEqual([
      expect.objectContaining({ path: '/oauth/source/', httpOnly: true, sameSite: 'Lax', secure: false }),
    ]);

    const page = await press(authorize, 'Approve');
    expect(await page.textContent('h1')).toBe('Account linked');
    expect(await page.textContent('#login')).toBe('mona');
    expect(await page.textContent('#chat-user')).toBe('Slack user UAPPROVE');
    expect(posted()).toContain('Linked the source-host account mona to Slack user UAPPROVE.');
    expect(await context.cookies(`${web.url}/oauth/source/callback`)).toEqual([]);
    expect(posted()).toContain('No migrations of your account on page 1.');
    expect(await linkedSource('UAPPROVE')).toMatchObject({ login: 'mona', scopes: ['read:user', 'repo'] });

    // The callback address replayed (back button, a leaked link): the state was single use.
    const replay = await context.newPage();
    await replay.goto(page.url());
    expect(await replay.textContent('h1')).toBe('Link expired or already used');
    await page.close();
    await replay.close();
  });

  it('an authorize link forwarded to another browser links nothing (refused without the cookie); the start link works once', async () => {
    const [ask] = await t.say('/link source', { user: 'UMALLORY' });
    // The sender opens their own start link: their browser gets the cookie, and the authorize address.
    const { page: own, authorizeUrl } = await openStart(firstLinkOf(ask));
    await own.close();
    // The start link again (forwarded instead): refused, it was opened already.
    const again = await context.newPage();
    await again.goto(firstLinkOf(ask));
    expect(await again.textContent('h1')).toBe('Link already opened');
    await again.close();
    // The victim's browser has no cookie of Deckhand's; they approve the forwarded authorize link.
    await context.clearCookies();
    const victim = await context.newPage();
    await victim.goto(authorizeUrl.toString());
    const refused = await press(victim, 'Approve', { login: 'hubot' });
    expect(await refused.textContent('h1')).toBe('Sign-in not started in this browser');
    expect(await refused.textContent('main')).toContain('nothing was linked');
    expect(await linkedSource('UMALLORY')).toBeUndefined();
    // Posted on Slack, where commands are written after the one slash command.
    expect(posted()).toContain(
      "A sign-in for UMALLORY's /deckhand link source came back in a browser that did not open Deckhand's link",
    );
    await refused.close();

    // Positive control: the same user opening the link in their own browser is linked, and named.
    const [fresh] = await t.say('/link source', { user: 'UMALLORY' });
    const linked = await decide(firstLinkOf(fresh), 'Approve', { login: 'hubot' });
    expect(await linked.textContent('h1')).toBe('Account linked');
    expect(await linked.textContent('#chat-user')).toBe('Slack user UMALLORY');
    expect(await linkedSource('UMALLORY')).toMatchObject({ login: 'hubot' });
    expect(posted()).toContain('Linked the source-host account hubot to Slack user UMALLORY.');
    await linked.close();
  });

  it("a start link forwarded to a victim names the requester before anything happens; an attacker's page posting the confirmation is refused", async () => {
    const [ask] = await t.say('/link source', { user: 'UFORWARD' });
    const start = firstLinkOf(ask);
    // The attacker's page on another site confirms the link in the victim's browser by itself.
    const attacker = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<form method="post" action="${start}"><input type="hidden" name="csrf" value="guess"></form><script>document.forms[0].submit()</script>`,
      );
    });
    await new Promise<void>((done) => attacker.listen(0, 'localhost', done));
    const attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}/`;
    try {
      await context.clearCookies();
      const victim = await context.newPage();
      await victim.goto(attackerUrl);
      await victim.waitForSelector('h1');
      expect(victim.url()).toBe(start);
      expect(await victim.textContent('h1')).toBe('Confirmation refused');
      expect(await victim.textContent('main')).toContain('nothing was linked');

      // The victim opens the forwarded link: it says whose link it is; they do not continue.
      await victim.goto(start);
      expect(await victim.textContent('h1')).toBe('Link your source-host account?');
      expect(await victim.textContent('#requester-line')).toBe(
        'You are linking your source-host account to Slack user UFORWARD in workspace T1; continue only if that is you.',
      );
      // With the page's cookie now in the victim's browser, the attacker's page is still refused.
      await victim.goto(attackerUrl);
      await victim.waitForSelector('h1:has-text("Confirmation refused")');
      expect(await linkedSource('UFORWARD')).toBeUndefined();
      await victim.close();
    } finally {
      attacker.closeAllConnections();
      await new Promise((done) => attacker.close(done));
    }

    // Positive control: the link was not used up; the requester confirms it and is linked.
    await context.clearCookies();
    const { page } = await openStart(start, 'Slack user UFORWARD in workspace T1');
    const linked = await press(page, 'Approve', { login: 'hubot' });
    expect(await linked.textContent('#chat-user')).toBe('Slack user UFORWARD');
    expect(await linkedSource('UFORWARD')).toMatchObject({ login: 'hubot' });
    await linked.close();
  });

  it('Deny → the denied page and a clear chat message; nothing is linked', async () => {
    const [ask] = await t.say('/link source', { user: 'UDENY' });
    const page = await decide(firstLinkOf(ask), 'Deny');
    expect(await page.textContent('h1')).toBe('Authorization declined');
    expect(posted()).toContain('UDENY declined the source-host authorization, so nothing was linked.');
    expect(await linkedSource('UDENY')).toBeUndefined();
    await page.close();
  });

  it('an expired state → the expired page, nothing linked', async () => {
    const [ask] = await t.say('/link source', { user: 'UEXPIRED' });
    const redis = t.app.redis.redis;
    const prefix = t.app.services.config.REDIS_KEY_PREFIX;
    for (const key of await redis.keys(`${prefix}oauth-state:*`)) await redis.pexpire(key, 1);
    await waitFor(async () => (await redis.keys(`${prefix}oauth-state:*`)).length === 0);
    const page = await context.newPage();
    await page.goto(firstLinkOf(ask));
    expect(await page.textContent('h1')).toBe('Link expired or already used');
    expect(await page.textContent('main')).toContain('Run /link source in the chat to get a new one.');
    expect(await linkedSource('UEXPIRED')).toBeUndefined();
    await page.close();
  });

  it('fewer scopes granted than asked are recorded; a command needing them asks to link again with them', async () => {
    const [ask] = await t.say('/source migration list @me', { user: 'UFEWER' });
    const page = await decide(firstLinkOf(ask), 'Approve', { drop: ['repo'] });
    expect(await page.textContent('main')).toContain('missing: repo');
    expect(await linkedSource('UFEWER')).toMatchObject({ login: 'mona', scopes: ['read:user'] });
    const replayed = t.transcript.posted.at(-1);
    expect(replayed?.text).toBe(
      'UFEWER: the answer to /source migration list is private; run it again to see it.',
    );
    const [again] = await t.say('/source migration list @me', { user: 'UFEWER' });
    expect(again?.text).toContain('needs more permissions than your link to mona has (missing: repo)');
    const { page: reopened, authorizeUrl } = await openStart(firstLinkOf(again));
    expect(authorizeUrl.searchParams.get('scope')).toBe('read:user repo');
    await reopened.close();
    await page.close();
  });

  it('/unlink source removes the link and says where to revoke the app', async () => {
    const [card] = await t.say('/unlink source', { user: 'UAPPROVE' });
    expect(card?.text).toContain('Removed your source account');
    expect(card?.text).toContain(
      `/settings/connections/applications/${t.app.emulators.sourcehost?.clientId}`,
    );
    expect(await linkedSource('UAPPROVE')).toBeUndefined();
    const [again] = await t.say('/unlink source', { user: 'UAPPROVE' });
    expect(again?.text).toContain('Nothing to unlink');
  });
});

describe('the one-time secret form in the browser', () => {
  it('stores a credential typed into the private page; the page works once and refuses a forged post', async () => {
    const [card] = await t.say('/link media', { user: 'UFORM' });
    expect(card?.visibility).toBe('private');
    const url = firstLinkOf(card);
    expect(url).toMatch(new RegExp(`^${web.url}/secrets/[A-Za-z0-9_-]{32}$`));

    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=guess&apiKey=forged-key-123456',
    });
    expect(forged.status).toBe(403);

    const page = await context.newPage();
    await page.goto(url);
    expect(await page.textContent('h1')).toBe('Store a media API key');
    await page.getByLabel('Media API key').fill('not valid!');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await page.textContent('[role=alert]')).toContain('does not look like one');
    await page.getByLabel('Media API key').fill(SANDBOX_MEDIA_KEY);
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await page.textContent('h1')).toBe('Saved');
    expect(await t.app.services.accounts.credentials.media(slackUser('UFORM'))).toMatchObject({
      apiKey: SANDBOX_MEDIA_KEY,
      origin: 'user',
    });
    expect(posted()).toContain('UFORM stored a media API key through the secret form.');
    expect(JSON.stringify(t.transcript)).not.toContain(SANDBOX_MEDIA_KEY);

    await page.goto(url);
    expect(await page.textContent('h1')).toBe('Form expired or already used');
    await page.close();
  });
});
