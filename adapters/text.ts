import type { Card, CardTime } from '../src/core/reply';
import { isValidTime, timeText } from '../src/core/times';

/**
 * Platform-neutral pieces of turning untrusted text into chat text: Unicode bidi controls, cutting
 * without splitting a surrogate pair, and escaping unit by unit within a length budget (so an escaped
 * text is never cut in the middle of an escape sequence or entity, and the work done is bounded by the
 * budget, not by the length of the input).
 */

/**
 * Bidi controls with a scope (embeddings, overrides, isolates: U+202A–U+202E, U+2066–U+2069). Left in
 * untrusted text they can reorder what follows them, including Deckhand's own words on the same line
 * ("Trojan Source", CVE-2021-42574). Chat platforms drop these.
 */
export const SCOPED_BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/** Every bidi control: the scoped ones and the marks U+200E, U+200F and U+061C (terminal output drops all). */
export const ALL_BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** True for a scoped bidi control (see {@link SCOPED_BIDI}). */
export function isScopedBidi(code: number): boolean {
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

const FSI_CODE = 0x2068;
const PDI_CODE = 0x2069;
/** The longest isolate kept: names, ids and URLs are shorter; a longer one is dropped like any control. */
const MAX_ISOLATE = 512;

function isBidiOrBreak(code: number): boolean {
  return (
    isScopedBidi(code) || code === 0x200e || code === 0x200f || code === 0x061c || code === 10 || code === 13
  );
}

/**
 * True when the character at `index` is one end of an isolate pair: FSI (U+2068) … PDI (U+2069) with
 * no other bidi control or line break between them, at most {@link MAX_ISOLATE} apart. Such a pair is
 * how a message isolates a tool name, id or URL in text of the other direction; it reorders nothing
 * outside it, so renderers keep it while dropping every other scoped control. Reads at most
 * {@link MAX_ISOLATE} characters.
 */
export function isPairedIsolate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code === FSI_CODE) {
    for (let i = index + 1; i < text.length && i <= index + MAX_ISOLATE; i++) {
      const next = text.charCodeAt(i);
      if (isBidiOrBreak(next)) return next === PDI_CODE;
    }
    return false;
  }
  if (code === PDI_CODE) {
    for (let i = index - 1; i >= 0 && i >= index - MAX_ISOLATE; i--) {
      const previous = text.charCodeAt(i);
      if (isBidiOrBreak(previous)) return previous === FSI_CODE;
    }
  }
  return false;
}

/**
 * `text` without the bidi controls `pattern` matches ({@link SCOPED_BIDI} or {@link ALL_BIDI}), but
 * with its paired isolates (see {@link isPairedIsolate}). Linear time.
 */
export function stripBidi(text: string, pattern: RegExp): string {
  return text.replace(pattern, (control: string, offset: number) =>
    isPairedIsolate(text, offset) ? control : '',
  );
}

/** Removes the scoped bidi controls from `text`, but for paired isolates (see {@link isPairedIsolate}). */
export function stripScopedBidi(text: string): string {
  return stripBidi(text, SCOPED_BIDI);
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The first `max` UTF-16 units of `text`, one fewer when that would split a surrogate pair. */
export function headOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = Math.max(0, max);
  return end > 0 && isHigh(text.charCodeAt(end - 1)) ? text.slice(0, end - 1) : text.slice(0, end);
}

/** The last `max` UTF-16 units of `text`, one fewer when that would split a surrogate pair. */
export function tailOf(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const start = text.length - max;
  return isLow(text.charCodeAt(start)) ? text.slice(start + 1) : text.slice(start);
}

/** Cuts plain `text` to `max` units, ending with `…` when it was cut; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${headOf(text, max - 1)}…`;
}

/** The length of the character (1 or 2 UTF-16 units) that starts at `index`. */
export function charLength(text: string, index: number): number {
  return isHigh(text.charCodeAt(index)) && isLow(text.charCodeAt(index + 1)) ? 2 : 1;
}

/**
 * One step of an escaper: the escaped form of the text from `index` (one character, or a few that
 * belong together), and where the next step starts. Steps are atomic: a cut falls between them.
 */
export type EscapeStep = (text: string, index: number) => { out: string; next: number };

/** An escaped text and whether it had to be cut. */
export interface Fitted {
  text: string;
  cut: boolean;
}

/**
 * Escapes `text` step by step and stops as soon as the output would exceed `max` units: the result
 * then ends with `…` after the last whole step that leaves room for it. Linear in `min(max, input)`
 * when each step is constant work (the escaper may look ahead, as long as it never re-reads the same
 * stretch twice).
 */
export function fitEscaped(text: string, max: number, step: EscapeStep): Fitted {
  const parts: string[] = [];
  let length = 0;
  let safeParts = 0;
  let index = 0;
  while (index < text.length) {
    const { out, next } = step(text, index);
    if (length + out.length > max) {
      const head = parts.slice(0, safeParts).join('');
      return { text: max >= 1 ? `${head}…` : '', cut: true };
    }
    parts.push(out);
    length += out.length;
    if (length <= max - 1) safeParts = parts.length;
    index = next;
  }
  return { text: parts.join(''), cut: false };
}

/** Joins a value and a rendered time: `ok · build-1 · <time>`, or the time alone. */
export function withTime(value: string, time: string | undefined): string {
  if (time === undefined) return value;
  return value ? `${value} · ${time}` : time;
}

/**
 * The card with its times written as text in its conversation's zone (platforms without a date token, the terminal): the
 * relative part only while the card is in progress (it is redrawn; a finished card is not, so it
 * shows no "just now" that would stay forever). Computed now, when the card is drawn.
 */
export function timesAsText(card: Card, now = Date.now()): Card {
  const hasTimes = card.footerTime !== undefined || (card.fields ?? []).some((f) => f.time !== undefined);
  if (!hasTimes) return card;
  const live = card.status === 'progress';
  const text = (time: CardTime | undefined) =>
    isValidTime(time) ? timeText(time, card.timeZone, live, now, card.locale) : undefined;
  const { footerTime, ...rest } = card;
  const out: Card = { ...rest };
  if (card.fields) {
    out.fields = card.fields.map(({ time, ...field }) => ({
      ...field,
      value: withTime(field.value, text(time)),
    }));
  }
  const footer = withTime(card.footer ?? '', text(footerTime));
  if (footer) out.footer = footer;
  return out;
}

/** The whole card as plain text (its times written out), ending in a newline: the copy attached when a card is cut. */
export function cardAsText(original: Card): string {
  const card = timesAsText(original);
  const parts: string[] = [];
  if (card.title) parts.push(card.title, '');
  if (card.text) parts.push(card.text, '');
  for (const field of card.fields ?? []) parts.push(`${field.label}: ${field.value}`);
  if (card.fields?.length) parts.push('');
  if (card.code) parts.push(card.code.text, '');
  if (card.footer) parts.push(card.footer);
  return `${parts.join('\n').trimEnd()}\n`;
}
