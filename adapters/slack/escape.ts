/**
 * Escapes untrusted text for any Slack text object: `&`, `<` and `>` are Slack's control characters
 * (`<!channel>`, `<@U123>`, `<url|label>`), so after this no mention, broadcast or link can be formed.
 */
export function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Reverses Slack's escaping of what a user typed (slash command text, message text). */
export function unescapeText(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/**
 * Turns Slack's markup in typed text back into what the user typed: `<https://x|x>` and `<https://x>`
 * become the URL, `<@U123|name>` / `<#C1|name>` their label; then entities are unescaped.
 */
export function plainTypedText(text: string): string {
  const unwrapped = text.replace(/<([^<>|]+)(?:\|([^<>]*))?>/g, (_match, target: string, label?: string) => {
    if (/^(https?|mailto):/i.test(target)) return target;
    return label ?? target;
  });
  return unescapeText(unwrapped);
}

/** Cuts `text` to at most `max` characters, ending with `…` when it was cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * A URL that is safe inside `<url|label>`: only http(s), and without the characters that would end
 * the link or start another one. Undefined when the URL is not acceptable.
 */
export function safeUrl(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  return parsed
    .toString()
    .replaceAll('&', '&amp;')
    .replaceAll('<', '%3C')
    .replaceAll('>', '%3E')
    .replaceAll('|', '%7C');
}

/**
 * Keeps text inside a ``` block: a run of three backticks in untrusted text would close the block
 * early and let the rest be parsed as markup.
 */
export function fenceSafe(text: string): string {
  return text.replaceAll('```', '`\u200b`\u200b`');
}
