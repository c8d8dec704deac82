/**
 * A card as the content of an `m.room.message`: a plain `body` and an HTML `formatted_body`
 * (`org.matrix.custom.html`). Every string of a card is untrusted: it is HTML-escaped in the
 * formatted body (so no tag, link or pill takes effect), kept as plain text in the body, and the
 * message carries an empty `m.mentions` — "intentional mentions": clients then ping nobody, whatever
 * the text says (`@room`, a display name, a user id). Escaping is one pass per string, within a
 * length budget ({@link fitEscaped}). Buttons are numbered (`[1] Approve`): a person presses one by
 * reacting with its number or answering `!1`. Text beyond the budget goes to an attached file.
 */

import type { Card, CardButton } from '../../src/core/reply';
import { statusLabel } from '../../src/core/reply';
import { t } from '../../src/i18n/translate';
import { cardInWords } from '../command-words';
import {
  type EscapeStep,
  fitEscaped,
  isPairedIsolate,
  stripScopedBidi,
  timesAsText,
  truncate,
} from '../text';

/** Characters of a card's text shown in the message (the whole text is attached beyond it). */
export const TEXT_BUDGET = 12_000;
/** Characters of a code block shown in the message. */
export const CODE_BUDGET = 8_000;
/** Keycap emoji of the numbers 1–10: a reaction with one presses that button. */
export const NUMBER_KEYS = ['1️⃣', '2️⃣', '3️⃣', '4️⃣', '5️⃣', '6️⃣', '7️⃣', '8️⃣', '9️⃣', '🔟'];

const STATUS_MARK: Record<NonNullable<Card['status']>, string> = {
  info: 'ℹ️',
  progress: '⏳',
  success: '✅',
  warning: '⚠️',
  danger: '❌',
};

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** One character of untrusted text, HTML-escaped (bidi controls dropped, but for paired isolates). */
const htmlStep: EscapeStep = (text, index) => {
  const char = text[index] as string;
  const code = text.charCodeAt(index);
  if (
    ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) &&
    !isPairedIsolate(text, index)
  )
    return { out: '', next: index + 1 };
  return { out: HTML_ENTITIES[char] ?? char, next: index + 1 };
};

/** Untrusted text as HTML, cut at `max` characters of output. */
export function escapeHtml(text: string, max = Number.POSITIVE_INFINITY): string {
  return fitEscaped(text, max, htmlStep).text;
}

/** Untrusted text for the plain body: bidi controls dropped, cut at `max`. */
function plain(text: string, max = Number.POSITIVE_INFINITY): string {
  return truncate(stripScopedBidi(text), max);
}

/** The content of a message, without relations. */
export interface MessageContent {
  msgtype: 'm.notice' | 'm.text';
  body: string;
  format: 'org.matrix.custom.html';
  formatted_body: string;
  'm.mentions': Record<string, never>;
}

/** A rendered card: its content, the files to send after it, and its buttons in number order. */
export interface RenderedCard {
  content: MessageContent;
  attachments: { filename: string; content: string }[];
  buttons: CardButton[];
}

const safeUrl = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined);

/**
 * Renders a card (see the module comment); `words` rewrites command mentions (`/deploy` → `!deploy`)
 * in its title, text, fields and footer.
 */
export function renderCard(input: Card, words: (text: string) => string = (text) => text): RenderedCard {
  const card = cardInWords(timesAsText(input), words);
  const body: string[] = [];
  const html: string[] = [];
  const attachments = [...(card.attachments ?? [])];
  const mark = card.status ? `${STATUS_MARK[card.status]} ` : '';
  if (card.title) {
    body.push(`${mark}${plain(card.title, 300)}`);
    html.push(`<p>${mark}<strong>${escapeHtml(card.title, 1500)}</strong></p>`);
  } else if (card.status) {
    body.push(`${mark}${statusLabel(card.status, card.locale)}`);
  }
  if (card.text) {
    const cut = card.text.length > TEXT_BUDGET;
    const shown = cut
      ? `${card.text.slice(0, TEXT_BUDGET)}\n… ${t(card.locale, 'card-matrix-text-attached')}`
      : card.text;
    if (cut) attachments.unshift({ filename: 'card.txt', content: card.text });
    body.push(plain(shown));
    html.push(`<p>${escapeHtml(shown).replaceAll('\n', '<br>')}</p>`);
  }
  for (const field of card.fields ?? []) {
    const value = plain(field.value, 1000);
    body.push(`${plain(field.label, 200)}: ${value}`);
    const link = field.url ? safeUrl(field.url) : undefined;
    const shownValue = escapeHtml(field.value, 5000);
    const rendered = link ? `<a href="${escapeHtml(link)}">${shownValue}</a>` : shownValue;
    html.push(`<p><strong>${escapeHtml(field.label, 1000)}</strong>: ${rendered}</p>`);
  }
  if (card.code) {
    const cut = card.code.text.length > CODE_BUDGET;
    if (cut) attachments.push({ filename: 'output.txt', content: card.code.text });
    const code = cut ? `…${card.code.text.slice(-CODE_BUDGET)}` : card.code.text;
    body.push(plain(code));
    html.push(`<pre><code>${escapeHtml(code)}</code></pre>`);
  }
  if (card.image?.fallback) {
    body.push(plain(card.image.fallback, 4000));
    html.push(`<pre>${escapeHtml(card.image.fallback, 20_000)}</pre>`);
  }
  for (const link of card.links ?? []) {
    const url = safeUrl(link.url);
    if (!url) continue;
    body.push(`${plain(link.label, 200)}: ${url}`);
    html.push(`<p><a href="${escapeHtml(url)}">${escapeHtml(link.label, 1000)}</a></p>`);
  }
  const buttons = (card.buttons ?? []).slice(0, NUMBER_KEYS.length);
  if (buttons.length > 0) {
    const labels = buttons.map((b, i) => `[${i + 1}] ${plain(b.label, 80)}`);
    const how = t(input.locale, 'card-matrix-choose');
    body.push(`${labels.join('   ')}\n${how}`);
    const items = buttons.map((b, i) => `<strong>[${i + 1}]</strong> ${escapeHtml(b.label, 400)}`);
    html.push(`<p>${items.join(' &nbsp; ')}<br><em>${how}</em></p>`);
  }
  if (card.footer) {
    body.push(plain(card.footer, 1000));
    html.push(`<p><em>${escapeHtml(card.footer, 5000)}</em></p>`);
  }
  return {
    content: {
      msgtype: 'm.notice',
      body: body.join('\n') || ' ',
      format: 'org.matrix.custom.html',
      formatted_body: html.join('') || '&nbsp;',
      'm.mentions': {},
    },
    attachments,
    buttons,
  };
}
