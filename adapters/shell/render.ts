import type { Card, CardStatus } from '../../src/core/reply';
import { statusLabel } from '../../src/core/reply';
import { ALL_BIDI, stripBidi, timesAsText } from '../text';

/** Colours used by the terminal renderer; empty strings when output is not a TTY. */
export interface Palette {
  bold: string;
  dim: string;
  reset: string;
  status: Record<CardStatus, string>;
}

/** ANSI colours for a terminal. */
export const ANSI: Palette = {
  bold: '\x1b[1m',
  dim: '\x1b[2m',
  reset: '\x1b[0m',
  status: {
    info: '\x1b[36m',
    progress: '\x1b[33m',
    success: '\x1b[32m',
    warning: '\x1b[35m',
    danger: '\x1b[31m',
  },
};

/** No colours (pipes, files, tests). */
export const PLAIN: Palette = {
  bold: '',
  dim: '',
  reset: '',
  status: { info: '', progress: '', success: '', warning: '', danger: '' },
};

/**
 * Removes terminal control sequences and other control characters from untrusted text, so a log
 * line cannot move the cursor, clear the screen or recolour the chat; and every Unicode bidi control
 * (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), so it cannot reorder what the terminal
 * shows ("Trojan Source") — but for the paired isolates (FSI … PDI) messages put around names, ids and
 * URLs, which reorder nothing outside them. Tabs and newlines stay. Linear time: the patterns' repeated classes are
 * disjoint and each stops at the next ESC, so no stretch of the text is scanned twice.
 */
export function sanitizeForTerminal(text: string): string {
  const inert = text
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
    .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '');
  return stripBidi(inert, ALL_BIDI);
}

/** Renders a card as terminal text; buttons are shown as numbered choices from `buttonNumbers`. */
export function renderCardText(original: Card, palette: Palette, buttonNumbers: number[] = []): string {
  const card = timesAsText(original);
  const s = sanitizeForTerminal;
  const lines: string[] = [];
  const colour = card.status ? palette.status[card.status] : '';
  const badge = card.status ? `${colour}[${statusLabel(card.status, card.locale)}]${palette.reset} ` : '';
  if (card.title) lines.push(`${badge}${palette.bold}${s(card.title)}${palette.reset}`);
  else if (badge && card.text) lines.push(`${badge}${s(card.text.split('\n')[0] ?? '')}`);
  const textLines = card.text ? s(card.text).split('\n') : [];
  const body = !card.title && badge ? textLines.slice(1) : textLines;
  lines.push(...body);
  const width = Math.max(0, ...(card.fields ?? []).map((f) => s(f.label).length));
  for (const field of card.fields ?? []) {
    const value = s(field.value).replaceAll('\n', `\n  ${' '.repeat(width + 2)}`);
    lines.push(`  ${s(field.label).padEnd(width)}  ${value}${field.url ? ` <${s(field.url)}>` : ''}`);
  }
  if (card.code) {
    for (const line of s(card.code.text).split('\n')) lines.push(`  ${palette.dim}│${palette.reset} ${line}`);
  }
  if (card.image) {
    lines.push(`  picture: ${s(card.image.alt)}${card.image.url ? ` <${s(card.image.url)}>` : ''}`);
    for (const line of card.image.fallback ? s(card.image.fallback).split('\n') : []) lines.push(`  ${line}`);
  }
  for (const link of card.links ?? []) lines.push(`  ${s(link.label)}: ${s(link.url)}`);
  if (card.buttons && card.buttons.length > 0) {
    const choices = card.buttons.map((b, i) => `[${buttonNumbers[i] ?? '?'}] ${s(b.label)}`);
    lines.push(`  ${palette.bold}${choices.join('  ')}${palette.reset}`);
  }
  for (const file of card.attachments ?? []) lines.push(`  (attached: ${s(file.filename)})`);
  for (const line of card.footer ? s(card.footer).split('\n') : [])
    lines.push(`  ${palette.dim}${line}${palette.reset}`);
  return lines.join('\n');
}
