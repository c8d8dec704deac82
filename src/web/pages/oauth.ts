/** The OAuth result pages: success, and one page per failure. */
import type { LinkOutcome, PreviewOutcome, StartOutcome } from '../oauth-flow';
import { escapeHtml, p, pageHtml } from './layout';

/** HTTP status and HTML of the page for an outcome. */
export function oauthResultPage(outcome: LinkOutcome): { status: number; html: string } {
  switch (outcome.kind) {
    case 'linked': {
      const missing = outcome.missing.length
        ? p(
            `Fewer permissions were granted than asked (missing: ${outcome.missing.join(', ')}). Commands that need them will ask again.`,
          )
        : '';
      return {
        status: 200,
        html: pageHtml(
          'Account linked',
          `<p>Linked the source-host account <strong id="login">${escapeHtml(outcome.login)}</strong> to <strong id="chat-user">${escapeHtml(outcome.chatUser)}</strong>.</p>${missing}${p('You can close this page and go back to the chat.')}${p(`If you are not ${outcome.chatUser}, revoke Deckhand's access in your source-host settings (Applications) now: that chat user can act with your account.`)}`,
        ),
      };
    }
    case 'expired':
      return {
        status: 400,
        html: pageHtml(
          'Link expired or already used',
          p('This sign-in link has expired or was already used, so nothing was linked.') +
            p('Links are valid for 10 minutes and work once. Run /link source in the chat to get a new one.'),
        ),
      };
    case 'wrong-browser':
      return {
        status: 403,
        html: pageHtml(
          'Sign-in not started in this browser',
          p("This sign-in came back to a browser that did not open Deckhand's link, so nothing was linked.") +
            p('Run /link source in the chat and open the link it sends you in this browser.') +
            p('If someone else sent you the link, do not approve it: it would link your account to them.'),
        ),
      };
    case 'denied':
      return {
        status: 200,
        html: pageHtml(
          'Authorization declined',
          p('You declined the authorization, so nothing was linked.') +
            p('Run /link source in the chat if you change your mind.'),
        ),
      };
    case 'mismatch':
      return {
        status: 400,
        html: pageHtml(
          'Callback address mismatch',
          p("The source host refused Deckhand's callback address, so nothing was linked.") +
            p("An admin must make PUBLIC_URL match the OAuth application's registered callback URL."),
        ),
      };
    case 'suspended':
      return {
        status: 403,
        html: pageHtml(
          'Application suspended',
          p("The source host has suspended Deckhand's OAuth application. Tell an admin."),
        ),
      };
    case 'failed':
      return {
        status: 502,
        html: pageHtml(
          'Linking failed',
          p(`Nothing was linked: ${outcome.reason}`) + p('Run /link source in the chat to try again.'),
        ),
      };
  }
}

/**
 * The confirmation shown when a start link is opened: whose link it is, what it grants, and a
 * Continue button (a form posting back with the anti-forgery token `csrf`).
 */
export function oauthConfirmPage(
  preview: Extract<PreviewOutcome, { kind: 'confirm' }>,
  csrf: string,
): string {
  const minutes = Math.max(1, Math.floor(preview.expiresIn / 60));
  const scopes = preview.scopes.length ? preview.scopes.join(', ') : 'public data only';
  return pageHtml(
    'Link your source-host account?',
    `<p id="requester-line">You are linking your source-host account to <strong id="requester">${escapeHtml(preview.requester)}</strong>; continue only if that is you.</p>${p(
      `That chat user will be able to act with your source-host account through Deckhand (permissions asked for: ${scopes}).`,
    )}${p('If someone sent you this link, do not continue: close this page. Nothing has been linked yet.')}
<form method="post">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<button type="submit">Continue to the source host</button>
</form>
${p(`This link works once and for about ${minutes} more minute${minutes === 1 ? '' : 's'}.`)}`,
  );
}

/** A confirmation that did not come from Deckhand's own page (no or wrong anti-forgery token). */
export function oauthForgedConfirmPage(): string {
  return pageHtml(
    'Confirmation refused',
    p("This confirmation did not come from Deckhand's own page, so nothing was linked.") +
      p('Open the link from the chat again, check whose link it is, and press Continue there.'),
  );
}

/** HTTP status and HTML of the page for a start link that cannot be used. */
export function oauthStartPage(
  outcome: Exclude<StartOutcome | PreviewOutcome, { kind: 'redirect' | 'confirm' }>,
): {
  status: number;
  html: string;
} {
  if (outcome.kind === 'used') {
    return {
      status: 409,
      html: pageHtml(
        'Link already opened',
        p(
          'This sign-in link was already confirmed in a browser and works only there, so nothing was linked here.',
        ) + p('Run /link source in the chat to get a new one.'),
      ),
    };
  }
  return oauthResultPage({ kind: 'expired' });
}
