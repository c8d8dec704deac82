/** The one-time secret entry form and its result pages. */
import type { SecretField } from '../secret-flow';
import { escapeHtml, p, pageHtml } from './layout';

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
export function secretFormPage(page: SecretFormPage): string {
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
<button type="submit">Save</button>
</form>
${p('This page works once and for 10 minutes. The value is stored encrypted and never shown in the chat.')}`,
  );
}

/** After a successful submission. */
export function secretSavedPage(what: string): string {
  return pageHtml('Saved', p(`Deckhand stored ${what}. You can close this page and go back to the chat.`));
}

/** An unknown, used or expired form. */
export function secretExpiredPage(): string {
  return pageHtml(
    'Form expired or already used',
    p('This form has expired or was already used, so nothing was stored.') +
      p('Run the /link command in the chat again to get a new one.'),
  );
}

/** A form sealed with a key Deckhand no longer has (its SECRET_KEY changed since the link was made). */
export function secretUnreadablePage(): string {
  return pageHtml(
    'Link no longer valid',
    p(
      'This link is no longer valid: Deckhand changed its encryption key since it was made, so nothing was stored.',
    ) + p('Run the /link command in the chat again to get a new one.'),
  );
}

/** A submission without a valid CSRF token or from another site. */
export function secretForbiddenPage(): string {
  return pageHtml(
    'Request refused',
    p('This submission did not come from the form Deckhand sent you, so nothing was stored.'),
  );
}
