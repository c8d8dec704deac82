/**
 * Escaping for Telegram's HTML parse mode. Every string of a card is untrusted: escaping `&`, `<`
 * and `>` makes it literal text, so a job named `<b>` shows as `<b>` and can never add markup,
 * links (`<a href>`; HTML mode has no `[label](url)` syntax: core.telegram.org/bots/api#html-style)
 * or mentions. Scoped bidi controls are dropped, but for paired isolates (see `isPairedIsolate`).
 */
import { SCOPED_BIDI, stripBidi } from '../text';

/** Escapes text for Telegram HTML, in linear time; the result is never longer than 5× the input. */
export function escapeHtml(text: string): string {
  return stripBidi(text, SCOPED_BIDI)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** Escapes an attribute value (double-quoted) for Telegram HTML. */
export function escapeAttribute(value: string): string {
  return escapeHtml(value).replaceAll('"', '&quot;');
}

/** True for URLs Telegram accepts in links and URL buttons (absolute http or https). */
export function isWebUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}
