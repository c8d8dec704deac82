import {
  charLength,
  type EscapeStep,
  type Fitted,
  fitEscaped,
  isPairedIsolate,
  isScopedBidi,
  SCOPED_BIDI,
  stripBidi,
} from '../text';

export { truncate } from '../text';

/**
 * Escapes untrusted text for any Slack text object: `&`, `<` and `>` are Slack's control characters
 * (`<!channel>`, `<@U123>`, `<url|label>`), so after this no mention, broadcast or link can be formed
 * (mrkdwn has no `[label](url)` links: https://api.slack.com/reference/surfaces/formatting#escaping;
 * every mrkdwn object we send is `verbatim`, so bare URLs and names are not linked either). Scoped
 * bidi controls are dropped, but for paired isolates (see `isPairedIsolate`). Linear time.
 */
export function escapeText(text: string): string {
  return stripBidi(text, SCOPED_BIDI)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** One character of {@link escapeText}: an entity, nothing (a bidi control), or the character. */
export const slackStep: EscapeStep = (text, index) => {
  const c = text[index] as string;
  const entity = ENTITIES[c];
  if (entity) return { out: entity, next: index + 1 };
  if (isScopedBidi(c.charCodeAt(0)) && !isPairedIsolate(text, index)) return { out: '', next: index + 1 };
  const length = charLength(text, index);
  return { out: length === 1 ? c : text.slice(index, index + 2), next: index + length };
};

/**
 * {@link escapeText} within `max` characters: cut (with `…`) between two escaped characters, never
 * inside an entity or a surrogate pair. Reads at most about `max` characters of the input.
 */
export function escapeWithin(text: string, max: number): Fitted {
  return fitEscaped(text, max, slackStep);
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
