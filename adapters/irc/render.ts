/**
 * A card as IRC shows it: at most three short lines — the status and title with the start of the text,
 * the fields in brief, and the buttons as numbered choices — with a link to the whole card on
 * Deckhand's web page when anything was left out. Every string is made inert (no control characters,
 * so no formatting, CTCP or line break can come from a log line or a name). A card's later
 * versions are single new lines (IRC cannot edit a message).
 */
import type { Card } from '../../src/core/reply';
import { statusLabel } from '../../src/core/reply';
import { t } from '../../src/i18n/translate';
import { inert } from './text';

/** Most bytes of one rendered line (the sender splits again at the server's exact limit). */
export const LINE_BYTES = 380;

/** Bold (\x02) around a short label: the only formatting the bot sends. */
const bold = (text: string) => `\x02${text}\x02`;

/** `text` cut to `max` UTF-8 bytes on a character boundary, with `…` when cut. */
export function fitBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > max - 3) break;
    out += char;
    bytes += size;
  }
  return `${out}…`;
}

/** `text` fitted so that `tail` (a link, never cut) still fits after it. */
function withTail(text: string, tail: string): string {
  const room = LINE_BYTES - Buffer.byteLength(tail);
  return `${text ? fitBytes(text, room) : ''}${text ? tail : tail.replace(/^ · /, '')}`;
}

function head(card: Card): string {
  const badge = card.status ? `${bold(`[${statusLabel(card.status, card.locale)}]`)} ` : '';
  const title = card.title ? inert(card.title) : '';
  const text = card.text ? inert(card.text.split('\n').find((l) => l.trim()) ?? '') : '';
  return `${badge}${[title, text].filter(Boolean).join(' — ')}`;
}

/** True when the summary lines leave something of the card out. */
function leavesOut(card: Card, lines: string[]): boolean {
  const shown = lines.join('\n');
  const textLines = (card.text ?? '').split('\n').filter((l) => l.trim());
  return (
    textLines.length > 1 ||
    shown.includes('…') ||
    card.code !== undefined ||
    card.image !== undefined ||
    (card.attachments?.length ?? 0) > 0 ||
    (card.links?.length ?? 0) > 2 ||
    card.footer !== undefined ||
    (card.fields?.length ?? 0) > 4
  );
}

/**
 * The lines of a card. `numbers` are its buttons' numbers; `viewUrl` is where the whole card is shown
 * (asked for only when something is left out).
 */
export function renderCardLines(card: Card, numbers: readonly number[], viewUrl: () => string): string[] {
  const lines = [fitBytes(head(card) || t(card.locale, 'card-irc-no-text'), LINE_BYTES)];
  const fields = (card.fields ?? []).slice(0, 4).map((f) => `${inert(f.label)}: ${inert(f.value)}`);
  if (fields.length) lines.push(fitBytes(fields.join(' · '), LINE_BYTES));
  // Links (a sign-in or secret page) are shown whole: they are what the card asks the reader to open.
  const links = (card.links ?? []).slice(0, 2).map((l) => ` · ${inert(l.label)}: ${inert(l.url)}`);
  const buttons = (card.buttons ?? []).map((b, i) => `[${numbers[i] ?? '?'}] ${inert(b.label)}`);
  const more = leavesOut(card, lines) ? ` · ${t(card.locale, 'card-irc-full-card', viewUrl())}` : '';
  const choose = buttons.length ? `${buttons.join('  ')} — ${t(card.locale, 'card-irc-choose')}` : '';
  if (choose || more || links.length) lines.push(withTail(choose, `${links.join('')}${more}`));
  return lines;
}

/**
 * A card's later version as one new line: its status and title, `news` (the text line it gained, when
 * there is one), its buttons, and the link when one was made.
 */
export function renderTransition(
  card: Card,
  viewUrl: () => string,
  numbers: readonly number[] = [],
  news?: string,
): string {
  const buttons = (card.buttons ?? []).map((b, i) => `[${numbers[i] ?? '?'}] ${inert(b.label)}`);
  const choices = buttons.length ? ` · ${buttons.join('  ')}` : '';
  const gained = news ? ` · ${inert(news)}` : '';
  // The buttons and the link are never cut: what the line says of the card is.
  return withTail(`${head(card)}${gained}`, `${choices}${leavesOut(card, []) ? ` · ${viewUrl()}` : ''}`);
}
