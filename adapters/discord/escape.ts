/**
 * Escaping of untrusted text for Discord: card strings are plain text, so markdown is escaped and
 * mention syntax is broken up. (Pings are also switched off on every message with
 * `allowed_mentions: { parse: [] }`; this keeps the text from even looking like a mention.)
 *
 * This replaces discord.js's `escapeMarkdown` (@discordjs/formatters 0.6.2, dist/index.js), which is
 * quadratic in the length of a word: its italic escaper's look-behinds (`(?<!<a?:.+|…https?:\/\/\S*|
 * <[^\s:]+:\/[^\s>]*)`) are re-evaluated backwards from every position, so a 30,000-character word
 * takes seconds; and its masked-link escaper (`/\[.+]\(.+\)/gm`, greedy) escapes only the first `[`
 * of a line, leaving every later `[label](url)` live. Here the text is read once, left to right:
 *
 * - `\ * _ ~ | [ ] \`` are backslash-escaped wherever they stand (so every `[label](url)`, nested or
 *   not, with `<url>` or not, loses its brackets), except `_` inside a bare `http(s)://` URL (up to white space, `<`, `>` or one of
 *   those characters), which Discord links as a whole (discord.js leaves those alone too, so links
 *   with underscores keep working);
 * - at the start of a line, after spaces, the block markers `#`, `-`, `+`, `>` and the `.` of `1.`
 *   are escaped (headings, `-#` subtext, lists, quotes), repeatedly after `- `-style bullets;
 * - `@everyone`/`@here` and `<@…>`, `<#…>`, `</…>`, `<:…>`, `<a:…>`, `<t:…>`, `<id:…>` get a
 *   zero-width space; scoped bidi controls are dropped.
 *
 * Every character discord.js's `escapeMarkdown` escapes is escaped here too (checked against its own
 * test inputs in test/adapters/discord-escape.test.ts).
 */
import { charLength, type EscapeStep, type Fitted, fitEscaped, isPairedIsolate, isScopedBidi } from '../text';

export { truncate } from '../text';

const ZWSP = '\u200b';
/** Escaped wherever they stand (`_` outside URLs). */
const ALWAYS = new Set(['\\', '*', '_', '~', '|', '[', ']', '`']);
/** Escaped when they open a line (after spaces). */
const LINE_MARKERS = new Set(['#', '-', '+', '>', '*']);
const MENTION_AFTER_LT = /[@#:/]|a:|t:|id:/y;
const BROADCAST = /everyone|here/iy;
const URL_START = /https?:\/\//y;
/** Where a bare URL's `_`-exemption ends: white space, `<>`, or a character escaped anyway. */
const URL_END = /[\s<>\\*~|[\]`]/g;

function at(pattern: RegExp, text: string, index: number): boolean {
  pattern.lastIndex = index;
  return pattern.test(text);
}

/** A one-pass Discord escaper (it keeps line and URL state, so make one per text). */
function discordStep(): EscapeStep {
  let lineStart = true;
  let numbered = false;
  let urlEnd = -1;
  return (text, index) => {
    const c = text[index] as string;
    if (c === '\n' || c === '\r') {
      lineStart = true;
      numbered = false;
      return { out: c, next: index + 1 };
    }
    if (numbered) {
      // `12. x` opens a numbered list: the dot after the digits that open a line is escaped.
      if (c >= '0' && c <= '9') return { out: c, next: index + 1 };
      numbered = false;
      if (c === '.') return { out: '\\.', next: index + 1 };
    }
    if (lineStart) {
      if (c === ' ' || c === '\t') return { out: c, next: index + 1 };
      if (LINE_MARKERS.has(c)) {
        // `- # x`: a bullet may be followed by another block marker.
        lineStart = text[index + 1] === ' ';
        return { out: `\\${c}`, next: index + 1 };
      }
      lineStart = false;
      if (c >= '0' && c <= '9') {
        numbered = true;
        return { out: c, next: index + 1 };
      }
    }
    if (index >= urlEnd && c === 'h' && at(URL_START, text, index)) {
      URL_END.lastIndex = index;
      urlEnd = URL_END.exec(text)?.index ?? text.length;
    }
    if (ALWAYS.has(c) && !(c === '_' && index < urlEnd)) return { out: `\\${c}`, next: index + 1 };
    if (c === '@' && at(BROADCAST, text, index + 1)) return { out: `@${ZWSP}`, next: index + 1 };
    if (c === '<' && at(MENTION_AFTER_LT, text, index + 1)) return { out: `<${ZWSP}`, next: index + 1 };
    if (isScopedBidi(c.charCodeAt(0)) && !isPairedIsolate(text, index)) return { out: '', next: index + 1 };
    const length = charLength(text, index);
    return { out: length === 1 ? c : text.slice(index, index + 2), next: index + length };
  };
}

/** Plain text → Discord markdown that shows exactly that text and mentions no one. Linear time. */
export function escapeText(text: string): string {
  return fitEscaped(text, Number.POSITIVE_INFINITY, discordStep()).text;
}

/**
 * {@link escapeText} within `max` characters: the escaped text, cut (with `…`) between two escaped
 * characters when it does not fit. Reads at most about `max` characters of the input.
 */
export function escapeWithin(text: string, max: number): Fitted {
  return fitEscaped(text, max, discordStep());
}

/** A fenced code block; fences inside the text cannot close it. */
export function codeBlock(text: string, language?: string): string {
  const lang = (language ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9+#-]/g, '')
    .slice(0, 20);
  const body = fenceSafe(text);
  return `\`\`\`${lang}\n${body}\n\`\`\``;
}

/** Breaks every run of three backticks, so the text cannot close a code block. */
export function fenceSafe(text: string): string {
  return text.replaceAll('```', `\`${ZWSP}\`${ZWSP}\``);
}

/** The overhead of {@link codeBlock} around the text, in characters. */
export function codeBlockOverhead(language?: string): number {
  return codeBlock('', language).length;
}
