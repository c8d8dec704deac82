/** The OAuth result pages: success, and one page per failure, in the reader's language. */
import { isolate, type MessageKey, type Translator, translator } from '../../i18n/translate';
import type { LinkOutcome, PreviewOutcome, StartOutcome } from '../oauth-flow';
import { escapeHtml, p, pageHtml } from './layout';

/** A page of a title and paragraphs, each a message of the catalog. */
function messagePage(say: Translator, title: MessageKey, ...paragraphs: MessageKey[]): string {
  return pageHtml(say.t(title), paragraphs.map((key) => p(say.t(key))).join(''), say);
}

/**
 * A message whose parameters are shown in bold (`<strong id="…">`), the rest of it escaped. Each
 * value takes its parameter's place through a private-use mark, so the catalog's words stay plain
 * text and the value keeps its isolation in mixed-direction text.
 */
function withStrong(
  say: Translator,
  key: MessageKey,
  values: readonly { id: string; value: string }[],
): string {
  const marks = values.map((_, i) => String.fromCharCode(0xe000 + i));
  let html = escapeHtml(say.t(key, ...marks));
  values.forEach(({ id, value }, i) => {
    const shown = say.direction === 'rtl' ? value : isolate(say.language, value);
    html = html.replace(marks[i] as string, `<strong id="${id}">${escapeHtml(shown)}</strong>`);
  });
  return html;
}

/** HTTP status and HTML of the page for an outcome. */
export function oauthResultPage(
  outcome: LinkOutcome,
  say: Translator = translator('en'),
): { status: number; html: string } {
  switch (outcome.kind) {
    case 'linked': {
      const missing = outcome.missing.length
        ? p(say.t('oauth-linked-missing', outcome.missing.join(', ')))
        : '';
      const linked = withStrong(say, 'oauth-linked-text', [
        { id: 'login', value: outcome.login },
        { id: 'chat-user', value: outcome.chatUser },
      ]);
      return {
        status: 200,
        html: pageHtml(
          say.t('oauth-linked-title'),
          `<p>${linked}</p>${missing}${p(say.t('oauth-linked-close'))}${p(say.t('oauth-linked-not-you', outcome.chatUser))}`,
          say,
        ),
      };
    }
    case 'expired':
      return {
        status: 400,
        html: messagePage(say, 'oauth-expired-title', 'oauth-expired-text', 'oauth-expired-hint'),
      };
    case 'wrong-browser':
      return {
        status: 403,
        html: messagePage(
          say,
          'oauth-wrong-browser-title',
          'oauth-wrong-browser-text',
          'oauth-wrong-browser-hint',
          'oauth-wrong-browser-warning',
        ),
      };
    case 'denied':
      return {
        status: 200,
        html: messagePage(say, 'oauth-denied-title', 'oauth-denied-text', 'oauth-denied-hint'),
      };
    case 'mismatch':
      return {
        status: 400,
        html: messagePage(say, 'oauth-mismatch-title', 'oauth-mismatch-text', 'oauth-mismatch-hint'),
      };
    case 'suspended':
      return { status: 403, html: messagePage(say, 'oauth-suspended-title', 'oauth-suspended-text') };
    case 'failed':
      return {
        status: 502,
        html: pageHtml(
          say.t('oauth-failed-title'),
          p(say.t('oauth-failed-text', outcome.reason)) + p(say.t('oauth-failed-hint')),
          say,
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
  say: Translator = translator('en'),
): string {
  const minutes = Math.max(1, Math.floor(preview.expiresIn / 60));
  const scopes = preview.scopes.length ? preview.scopes.join(', ') : say.t('oauth-confirm-public-only');
  const requester = withStrong(say, 'oauth-confirm-requester', [
    { id: 'requester', value: preview.requester },
  ]);
  return pageHtml(
    say.t('oauth-confirm-title'),
    `<p id="requester-line">${requester}</p>${p(say.t('oauth-confirm-grants', scopes))}${p(say.t('oauth-confirm-warning'))}
<form method="post">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<button type="submit">${escapeHtml(say.t('oauth-confirm-continue'))}</button>
</form>
${p(say.t('oauth-confirm-expires', minutes))}`,
    say,
  );
}

/** A confirmation that did not come from Deckhand's own page (no or wrong anti-forgery token). */
export function oauthForgedConfirmPage(say: Translator = translator('en')): string {
  return messagePage(say, 'oauth-forged-title', 'oauth-forged-text', 'oauth-forged-hint');
}

/** HTTP status and HTML of the page for a start link that cannot be used. */
export function oauthStartPage(
  outcome: Exclude<StartOutcome | PreviewOutcome, { kind: 'redirect' | 'confirm' }>,
  say: Translator = translator('en'),
): {
  status: number;
  html: string;
} {
  if (outcome.kind === 'used') {
    return { status: 409, html: messagePage(say, 'oauth-used-title', 'oauth-used-text', 'oauth-used-hint') };
  }
  return oauthResultPage({ kind: 'expired' }, say);
}
