/**
 * The read-only page of a whole card (see src/core/card-view.ts). Every string of the card is
 * untrusted (log lines, commit messages, names): each is escaped, links are shown as text with their
 * address, and the page's CSP allows no script, image or fetch.
 */

import type { Card } from '../../core/reply';
import { statusLabel } from '../../core/reply';
import { type Translator, translator } from '../../i18n/translate';
import { escapeHtml, p, pageHtml } from './layout';

const pre = (text: string) =>
  `<pre style="white-space:pre-wrap;overflow-wrap:anywhere">${escapeHtml(text)}</pre>`;

/**
 * The page of `card`, in the card's language; `base` is the card's own path (its picture and files
 * hang under it).
 */
export function cardPage(card: Card, base: string): string {
  const say = translator(card.locale);
  const parts: string[] = [];
  if (card.status) parts.push(p(say.t('card-page-status', statusLabel(card.status, card.locale))));
  if (card.text) parts.push(pre(card.text));
  if (card.fields?.length) {
    const rows = card.fields.map(
      (f) =>
        `<dt>${escapeHtml(f.label)}</dt><dd>${escapeHtml(f.value)}${f.url ? ` (${escapeHtml(f.url)})` : ''}</dd>`,
    );
    parts.push(`<dl>${rows.join('')}</dl>`);
  }
  if (card.code) parts.push(pre(card.code.text));
  if (card.image) {
    const picture = card.image.pngBase64
      ? ` <a href="${base}/picture.png">${escapeHtml(card.image.filename)}</a>`
      : '';
    parts.push(p(say.t('card-page-picture', card.image.alt)).replace('</p>', `${picture}</p>`));
    if (card.image.fallback) parts.push(pre(card.image.fallback));
  }
  for (const link of card.links ?? []) parts.push(p(`${link.label}: ${link.url}`));
  for (const [index, file] of (card.attachments ?? []).entries()) {
    parts.push(
      `<h2><a href="${base}/files/${index}">${escapeHtml(file.filename)}</a></h2>${pre(file.content)}`,
    );
  }
  if (card.footer) parts.push(p(card.footer));
  return pageHtml(card.title ?? say.t('card-page-title'), parts.join('\n'), say);
}

/** The page of a card that is not (or no longer) kept (in English: whose card it was is unknown). */
export function cardGonePage(say: Translator = translator('en')): string {
  return pageHtml(say.t('card-page-gone-title'), p(say.t('card-page-gone-text')), say);
}
