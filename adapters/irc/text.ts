/**
 * IRC text: formatting codes stripped from what people type, untrusted text made inert for IRC
 * (no control characters, no line breaks, no bidi controls), and lines split at the server's byte
 * limit on character boundaries (a server cuts a relayed line by bytes, mid-character, silently).
 */
import { ALL_BIDI, stripBidi } from '../text';

/**
 * mIRC formatting: bold \x02, colour \x03 with up to two digits and an optional `,bg`, hex colour \x04
 * with up to six hex digits and an optional `,bg`, monospace \x11, reverse \x16, italics \x1d,
 * strikethrough \x1e, underline \x1f, reset \x0f. Linear: each match is anchored on its code.
 */
const FORMATTING =
  /\x03(\d{1,2}(,\d{1,2})?)?|\x04([0-9a-fA-F]{6}(,[0-9a-fA-F]{6})?)?|[\x02\x0f\x11\x16\x1d\x1e\x1f]/g;

/** Text as typed, without formatting codes. */
export function stripFormatting(text: string): string {
  return text.replace(FORMATTING, '');
}

/** True for a CTCP message (ACTION, VERSION, …): wrapped in \x01. */
export function isCtcp(text: string): boolean {
  return text.startsWith('\x01');
}

/**
 * Untrusted text for one IRC line: formatting codes and every other control character removed (a
 * newline would start a new line, \x01 a CTCP), bidi controls removed (but for paired isolates, see `isPairedIsolate`), runs of whitespace one space.
 */
export function inert(text: string): string {
  const flat = stripFormatting(text).replace(/[\x00-\x1f\x7f-\x9f]+/g, ' ');
  return stripBidi(flat, ALL_BIDI).replace(/ {2,}/g, ' ').trim();
}

/**
 * Splits `text` into pieces of at most `maxBytes` UTF-8 bytes, never inside a character (code point),
 * preferring to break after a space in the last fifth of a piece.
 */
export function splitBytes(text: string, maxBytes: number): string[] {
  const pieces: string[] = [];
  let current = '';
  let bytes = 0;
  let lastSpace = -1;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > maxBytes && current) {
      if (lastSpace > current.length * 0.8) {
        pieces.push(current.slice(0, lastSpace).trimEnd());
        current = current.slice(lastSpace + 1);
      } else {
        pieces.push(current);
        current = '';
      }
      bytes = Buffer.byteLength(current);
      lastSpace = current.lastIndexOf(' ');
    }
    if (char === ' ') lastSpace = current.length;
    current += char;
    bytes += size;
  }
  if (current.trim()) pieces.push(current);
  return pieces;
}

/** Bytes a PRIVMSG line may carry after its prefix, given the sender's hostmask and the target. */
export function textBudget(self: { nick: string; username: string; host: string }, target: string): number {
  // ":nick!user@host PRIVMSG target :" + text + "\r\n" ≤ 512; 20 bytes kept for a cloak set later.
  // Before the server showed the bot its own host (on joining), assume the longest one (63 bytes).
  const host = self.host || 'h'.repeat(63);
  const overhead = Buffer.byteLength(`:${self.nick}!~${self.username}@${host} PRIVMSG ${target} :\r\n`);
  return Math.max(64, 512 - overhead - 20);
}
