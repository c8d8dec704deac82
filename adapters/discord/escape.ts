/**
 * Escaping of untrusted text for Discord: card strings are plain text, so markdown is escaped and
 * mention syntax is broken up. (Pings are also switched off on every message with
 * `allowed_mentions: { parse: [] }`; this keeps the text from even looking like a mention.)
 */
import { escapeMarkdown } from 'discord.js';

const ZWSP = '\u200b';

/** Breaks `@everyone`, `@here`, `<@id>`, `<@&id>`, `<#id>`, `</cmd:id>`, `<t:…>` and custom emoji. */
export function neutraliseMentions(text: string): string {
  return text.replace(/@(everyone|here)/gi, `@${ZWSP}$1`).replace(/<(?=[@#:/]|a:|t:|id:)/g, `<${ZWSP}`);
}

/** Plain text → Discord markdown that shows exactly that text and mentions no one. */
export function escapeText(text: string): string {
  return neutraliseMentions(
    escapeMarkdown(text, { heading: true, bulletedList: true, numberedList: true, maskedLink: true }),
  );
}

/** A fenced code block; fences inside the text cannot close it. */
export function codeBlock(text: string, language?: string): string {
  const lang = (language ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9+#-]/g, '')
    .slice(0, 20);
  const body = text.replaceAll('```', `\`${ZWSP}\`${ZWSP}\``);
  return `\`\`\`${lang}\n${body}\n\`\`\``;
}

/** The overhead of {@link codeBlock} around the text, in characters. */
export function codeBlockOverhead(language?: string): number {
  return codeBlock('', language).length;
}

/** Cuts `text` to `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}
