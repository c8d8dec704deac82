/** The one-time secret entry form and its result pages. */

import { type Translator, translator } from '../../i18n/translate';
import type { SecretField } from '../secret-flow';
import { escapeHtml, p, pageHtml } from './layout';

const ENGLISH = translator('en');

/** What the form page shows. */
export interface SecretFormPage {
  title: string;
  intro: string;
  fields: SecretField[];
  csrf: string;
  /** Shown above the form after an invalid submission. */
  problem?: string;
  /** Values to keep after an invalid submission (non-secret fields only). */
  keep?: Record<string, string>;
}

/** The form. */
export function secretFormPage(page: SecretFormPage, say: Translator = ENGLISH): string {
  const problem = page.problem ? `<div role="alert" id="problem">${p(page.problem)}</div>` : '';
  const inputs = page.fields
    .map((field, index) => {
      const value =
        !field.secret && page.keep?.[field.name]
          ? ` value="${escapeHtml(page.keep[field.name] as string)}"`
          : '';
      return `<label for="${field.name}">${escapeHtml(field.label)}</label>
<input id="${field.name}" name="${field.name}" type="${field.secret ? 'password' : 'text'}" autocomplete="${field.autocomplete}" required${index === 0 ? ' autofocus' : ''}${value}>`;
    })
    .join('\n');
  return pageHtml(
    page.title,
    `${problem}${p(page.intro)}
<form method="post">
<input type="hidden" name="csrf" value="${escapeHtml(page.csrf)}">
${inputs}
<button type="submit">${escapeHtml(say.t('secret-form-save'))}</button>
</form>
${p(say.t('secret-form-once'))}`,
    say,
  );
}

/** After a successful submission. */
export function secretSavedPage(what: string, say: Translator = ENGLISH): string {
  return pageHtml(say.t('secret-saved-title'), p(say.t('secret-saved-text', what)), say);
}

/** An unknown, used or expired form. */
export function secretExpiredPage(say: Translator = ENGLISH): string {
  return pageHtml(
    say.t('secret-expired-title'),
    p(say.t('secret-expired-text')) + p(say.t('secret-link-again')),
    say,
  );
}

/** A form sealed with a key Deckhand no longer has (its SECRET_KEY changed since the link was made). */
export function secretUnreadablePage(say: Translator = ENGLISH): string {
  return pageHtml(
    say.t('secret-unreadable-title'),
    p(say.t('secret-unreadable-text')) + p(say.t('secret-link-again')),
    say,
  );
}

/** A submission without a valid CSRF token or from another site. */
export function secretForbiddenPage(say: Translator = ENGLISH): string {
  return pageHtml(say.t('secret-forbidden-title'), p(say.t('secret-forbidden-text')), say);
}
