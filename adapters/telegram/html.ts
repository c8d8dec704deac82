/**
 * Escaping for Telegram's HTML parse mode. Every string of a card is untrusted: escaping `&`, `<`
 * and `>` makes it literal text, so a job named `<b>` shows as `<b>` and can never add markup,
 * links or mentions.
 */

/** Escapes text for Telegram HTML. */
export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
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
