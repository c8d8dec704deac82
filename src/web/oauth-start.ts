/**
 * The start link of the source-host OAuth flow (`/oauth/source/start/<state>`), in two steps:
 *
 * - `GET` shows a confirmation page naming the chat user who asked for the link ("You are linking
 *   your source-host account to <platform> user ada in workspace T1; continue only if that is you") and
 *   changes nothing: the link is not used up, no browser is bound. A start link forwarded to someone
 *   else therefore tells them whose link it is before anything happens, and a chat's link preview
 *   cannot use the link up.
 * - `POST` (the page's Continue button) binds this browser and redirects to the source host's
 *   authorize page. It is refused unless it carries the page's anti-forgery token in both the form
 *   and a `SameSite=Strict` cookie scoped to this link, and (when the browser names one) comes from
 *   Deckhand's own origin: another site cannot confirm a link in someone's browser by posting to it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { OAUTH_START_PATH, type SourceLinker } from './oauth-flow';
import { oauthConfirmPage, oauthForgedConfirmPage, oauthStartPage } from './pages/oauth';
import { readerOf } from './reader';
import { cookie, originOf, readBody } from './request';
import { HTML_PAGE_HEADERS, sendHtml } from './respond';
import type { WebServer } from './server';

/** The anti-forgery cookie of the confirmation page (scoped to one link's path). */
const CONFIRM_COOKIE = 'dh_confirm';

function stateOf(url: string | undefined): string {
  return new URL(url ?? '/', 'http://localhost').pathname.slice(OAUTH_START_PATH.length);
}

function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Mounts `GET` and `POST` of the start link. */
export function mountStartRoutes(web: WebServer, linker: SourceLinker): void {
  const confirmCookie = (state: string, value: string, maxAge: number) => {
    const secure = linker.redirectUri().startsWith('https:') ? '; Secure' : '';
    return `${CONFIRM_COOKIE}=${value}; Path=${OAUTH_START_PATH}${state}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}`;
  };

  web.route('GET', `${OAUTH_START_PATH}*`, async (req, res) => {
    const state = stateOf(req.url);
    const preview = await linker.preview(state);
    if (preview.kind !== 'confirm') {
      const page = oauthStartPage(preview, readerOf(req));
      return sendHtml(res, page.status, page.html);
    }
    const token = randomBytes(32).toString('base64url');
    sendHtml(res, 200, oauthConfirmPage(preview, token, readerOf(req)), {
      'set-cookie': confirmCookie(state, token, preview.expiresIn),
      // The Continue button's answer is a redirect to the source host: the form may lead there.
      'content-security-policy': HTML_PAGE_HEADERS['content-security-policy']?.replace(
        "form-action 'self'",
        `form-action 'self' ${preview.authorizeOrigin}`,
      ) as string,
    });
  });

  web.route('POST', `${OAUTH_START_PATH}*`, async (req, res) => {
    const state = stateOf(req.url);
    const body = await readBody(req);
    const fields = new URLSearchParams(body?.toString('utf8') ?? '');
    const origin = originOf(req);
    const ownOrigin = new URL(linker.redirectUri()).origin;
    if (
      !body ||
      (origin !== undefined && origin !== ownOrigin) ||
      !sameToken(fields.get('csrf') ?? undefined, cookie(req, CONFIRM_COOKIE))
    ) {
      return sendHtml(res, 403, oauthForgedConfirmPage(readerOf(req)));
    }
    const outcome = await linker.start(state);
    if (outcome.kind !== 'redirect') {
      const page = oauthStartPage(outcome, readerOf(req));
      return sendHtml(res, page.status, page.html);
    }
    res.writeHead(303, {
      location: outcome.url,
      'set-cookie': [outcome.setCookie, confirmCookie(state, '', 0)],
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    res.end();
  });
}
