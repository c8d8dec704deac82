/**
 * Renders the neutral {@link Card} as Telegram messages: HTML parse mode (everything escaped), an
 * inline keyboard whose callback_data is the short action id, and Telegram's limits — 4,096 visible
 * characters per message (a long code block keeps its tail and goes whole into a `.txt` document; other
 * long content is split over at most {@link MAX_PARTS} messages, and beyond that goes whole into a
 * document too) and 64 bytes of callback_data. Lengths are counted on the raw text and cut between
 * characters before escaping, so no entity or surrogate pair is ever split.
 */
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { Card, CardStatus } from '../../src/core/reply';
import { scrubCardKnown } from '../../src/core/scrub-card';
import { t } from '../../src/i18n/translate';
import { charLength, headOf, tailOf, timesAsText } from '../text';
import { escapeAttribute, escapeHtml, isWebUrl } from './html';
import { keyboardOf } from './keyboard';
import { TELEGRAM_LIMITS } from './limits';

export { TELEGRAM_LIMITS } from './limits';

/** A file sent with a card (an attachment, or the whole of a code block that was too long). */
export interface TelegramDocument {
  filename: string;
  content: string;
  /** HTML caption, within the caption limit. */
  caption?: string;
}

/** The card's picture, sent with `sendPhoto` (bytes as a multipart upload, or a URL Telegram fetches). */
export interface TelegramPhoto {
  data?: Buffer;
  url?: string;
  filename: string;
  /** HTML caption (the alt text), within the caption limit. */
  caption: string;
}

/** A card as Telegram messages. */
export interface RenderedCard {
  /** HTML texts, each within the message limit; the keyboard goes with the last one. */
  parts: string[];
  /** The card's picture, sent after the texts (posts only: an edit cannot add a photo). */
  photo?: TelegramPhoto | undefined;
  keyboard?: InlineKeyboardMarkup | undefined;
  documents: TelegramDocument[];
}

const ICONS: Record<CardStatus, string> = {
  info: 'ℹ️',
  progress: '⏳',
  success: '✅',
  warning: '⚠️',
  danger: '❌',
};

/** A run of lines rendered one way (plain text, code, italics). */
interface Block {
  lines: string[];
  render(lines: string[]): string;
  /** Visible characters added around the lines (e.g. a bold label). */
  extra: number;
}

const SEPARATOR = '\n\n';

/** Most messages one card is posted as: a longer card (a 100,000-character paste) would flood the chat. */
export const MAX_PARTS = 4;

function lengthOf(block: Block): number {
  return block.lines.join('\n').length + block.extra;
}

function textBlock(text: string, prefix = ''): Block {
  return { lines: `${prefix}${text}`.split('\n'), render: (lines) => escapeHtml(lines.join('\n')), extra: 0 };
}

function codeBlock(code: string, language?: string): Block {
  const lang = language && /^[\w+#.-]{1,20}$/.test(language) ? language : undefined;
  return {
    lines: code.replace(/\n+$/, '').split('\n'),
    render: (lines) =>
      lang
        ? `<pre><code class="language-${lang}">${escapeHtml(lines.join('\n'))}</code></pre>`
        : `<pre>${escapeHtml(lines.join('\n'))}</pre>`,
    extra: 0,
  };
}

function fieldsBlock(card: Card): Block | undefined {
  const fields = card.fields ?? [];
  if (fields.length === 0) return undefined;
  const rendered: { plain: string; html: string }[] = [];
  let inlineRun: { plain: string; html: string }[] = [];
  const flush = () => {
    if (inlineRun.length === 0) return;
    rendered.push({
      plain: inlineRun.map((f) => f.plain).join('  ·  '),
      html: inlineRun.map((f) => f.html).join('  ·  '),
    });
    inlineRun = [];
  };
  for (const field of fields) {
    const value =
      field.url && isWebUrl(field.url)
        ? `<a href="${escapeAttribute(field.url)}">${escapeHtml(field.value)}</a>`
        : escapeHtml(field.value);
    const item = {
      plain: `${field.label}: ${field.value}`,
      html: `<b>${escapeHtml(field.label)}:</b> ${value}`,
    };
    if (field.inline && !field.value.includes('\n')) inlineRun.push(item);
    else {
      flush();
      rendered.push(item);
    }
  }
  flush();
  const byPlain = new Map(rendered.map((r) => [r.plain, r.html]));
  return {
    lines: rendered.map((r) => r.plain),
    render: (lines) => lines.map((line) => byPlain.get(line) ?? escapeHtml(line)).join('\n'),
    extra: 0,
  };
}

function buildBlocks(card: Card, links: Card['links']): { blocks: Block[]; code?: Block } {
  const blocks: Block[] = [];
  const icon = card.status ? `${ICONS[card.status]} ` : '';
  if (card.title) {
    blocks.push({
      lines: [card.title],
      render: (lines) => `${icon}<b>${escapeHtml(lines.join(' '))}</b>`,
      extra: icon.length,
    });
  }
  if (card.text) blocks.push(textBlock(card.text, card.title ? '' : icon));
  else if (!card.title && icon) blocks.push(textBlock(icon.trim()));
  const fields = fieldsBlock(card);
  if (fields) blocks.push(fields);
  let code: Block | undefined;
  if (card.code?.text) {
    code = codeBlock(card.code.text, card.code.language);
    blocks.push(code);
  }
  for (const link of links ?? []) blocks.push(textBlock(`${link.label}: ${link.url}`));
  if (card.footer) {
    blocks.push({
      lines: card.footer.split('\n'),
      render: (l) => `<i>${escapeHtml(l.join('\n'))}</i>`,
      extra: 0,
    });
  }
  return code ? { blocks, code } : { blocks };
}

function totalLength(blocks: Block[]): number {
  return blocks.reduce((sum, b) => sum + lengthOf(b), 0) + SEPARATOR.length * Math.max(0, blocks.length - 1);
}

/** Splits a block into blocks of at most `limit` visible characters, at line ends where possible. */
function splitBlock(block: Block, limit: number): Block[] {
  const room = Math.max(1, limit - block.extra);
  const out: Block[] = [];
  let current: string[] = [];
  let size = 0;
  const push = () => {
    if (current.length) out.push({ ...block, lines: current });
    current = [];
    size = 0;
  };
  for (const line of block.lines) {
    const pieces = line.length > room ? chunkLine(line, room) : [line];
    for (const piece of pieces) {
      const added = (current.length ? 1 : 0) + piece.length;
      if (size + added > room) push();
      size += (current.length ? 1 : 0) + piece.length;
      current.push(piece);
    }
  }
  push();
  return out;
}

/** Cuts a long line into pieces of at most `size` UTF-16 units without splitting a character. */
function chunkLine(line: string, size: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < line.length) {
    let piece = headOf(line.slice(start, start + size), size);
    if (piece === '') piece = line.slice(start, start + charLength(line, start));
    out.push(piece);
    start += piece.length;
  }
  return out;
}

/** Packs blocks into messages of at most `limit` visible characters. */
function pack(blocks: Block[], limit: number): string[] {
  const parts: string[] = [];
  let html: string[] = [];
  let size = 0;
  for (const block of blocks.flatMap((b) => (lengthOf(b) > limit ? splitBlock(b, limit) : [b]))) {
    const length = lengthOf(block);
    const added = (html.length ? SEPARATOR.length : 0) + length;
    if (html.length && size + added > limit) {
      parts.push(html.join(SEPARATOR));
      html = [];
      size = 0;
    }
    size += (html.length ? SEPARATOR.length : 0) + length;
    html.push(block.render(block.lines));
  }
  if (html.length) parts.push(html.join(SEPARATOR));
  return parts;
}

/** The whole card as plain text, for the document sent when it does not fit in {@link MAX_PARTS} messages. */
function plainText(card: Card): string {
  const parts: string[] = [];
  if (card.title) parts.push(card.title, '');
  if (card.text) parts.push(card.text, '');
  for (const field of card.fields ?? [])
    parts.push(`${field.label}: ${field.value}${field.url ? ` (${field.url})` : ''}`);
  if (card.fields?.length) parts.push('');
  if (card.code) parts.push(card.code.text, '');
  for (const link of card.links ?? []) parts.push(`${link.label}: ${link.url}`);
  if (card.footer) parts.push(card.footer);
  return `${parts.join('\n').trimEnd()}\n`;
}

/** A file name Telegram and every client handle: letters, digits, `._-`. */
export function safeFilename(name: string, fallback = 'output.txt'): string {
  // Only the head can show (60 characters); a 100,000-character title is not scanned whole.
  const cleaned = name
    .slice(0, 400)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 60);
  return cleaned || fallback;
}

/** The caption of a card's documents: its title, clipped to the caption limit. */
export function captionOf(card: Card): string | undefined {
  if (!card.title) return undefined;
  const chars = Array.from(card.title);
  const room = TELEGRAM_LIMITS.caption - 4;
  let title = '';
  for (const char of chars) {
    if (title.length + char.length > room) {
      title += '…';
      break;
    }
    title += char;
  }
  return `📎 ${escapeHtml(title)}`;
}

/** The card's picture for `sendPhoto`, captioned with its alt text (≤ 1,024 characters). */
function photoOf(card: Card): TelegramPhoto | undefined {
  const image = card.image;
  if (!image) return undefined;
  const caption = escapeHtml(headOf(image.alt || 'chart', TELEGRAM_LIMITS.caption - 10));
  const filename = safeFilename(image.filename, 'image.png');
  if (image.pngBase64) return { data: Buffer.from(image.pngBase64, 'base64'), filename, caption };
  if (image.url && isWebUrl(image.url)) return { url: image.url, filename, caption };
  return undefined;
}

/** Keeps the tail of an over-long code block and puts the whole of it into a document. */
function shortenCode(card: Card, blocks: Block[], code: Block, documents: TelegramDocument[]): void {
  const filename = safeFilename(`${(card.title ?? 'output').toLowerCase()}.txt`);
  const caption = captionOf(card);
  documents.push({ filename, content: card.code?.text ?? '', ...(caption ? { caption } : {}) });
  const others = totalLength(blocks) - lengthOf(code);
  const room = Math.max(800, TELEGRAM_LIMITS.text - others - 120);
  const kept: string[] = [];
  let size = 0;
  for (let i = code.lines.length - 1; i >= 0; i--) {
    const line = code.lines[i] as string;
    if (size + line.length + 1 > room) break;
    kept.unshift(line);
    size += line.length + 1;
  }
  const dropped = code.lines.length - kept.length;
  if (kept.length === 0) kept.push(tailOf(code.lines.at(-1) ?? '', room));
  code.lines = kept;
  const note = textBlock(`… ${t(card.locale, 'card-telegram-earlier-lines', dropped, filename)}`);
  blocks.splice(blocks.indexOf(code), 0, note);
}

/**
 * Renders a card (secrets masked unless it is private, see {@link scrubCardKnown}). `post` may split it
 * over several messages; `edit` (editing one message in place) always yields one part, shortened
 * when needed.
 */
export function renderCard(original: Card, mode: 'post' | 'edit' = 'post'): RenderedCard {
  const card = timesAsText(scrubCardKnown(original));
  const webLinks = (card.links ?? []).filter((l) => isWebUrl(l.url));
  const otherLinks = (card.links ?? []).filter((l) => !isWebUrl(l.url));
  const { blocks, code } = buildBlocks(card, otherLinks);
  const caption = captionOf(card);
  const documents: TelegramDocument[] = (card.attachments ?? []).map((a) => ({
    filename: safeFilename(a.filename),
    content: a.content,
    ...(caption ? { caption } : {}),
  }));
  if (code && totalLength(blocks) > TELEGRAM_LIMITS.text) shortenCode(card, blocks, code, documents);
  let parts: string[];
  if (mode === 'edit') {
    const shortened = `… ${t(card.locale, 'card-telegram-shortened')}`;
    const limit = TELEGRAM_LIMITS.text - shortened.length - SEPARATOR.length;
    parts = pack(blocks, totalLength(blocks) > TELEGRAM_LIMITS.text ? limit : TELEGRAM_LIMITS.text);
    if (parts.length > 1) parts = [`${parts[0]}${SEPARATOR}${escapeHtml(shortened)}`];
  } else {
    parts = pack(blocks, TELEGRAM_LIMITS.text);
    if (parts.length > MAX_PARTS) {
      const filename = safeFilename(`${(card.title ?? 'message').toLowerCase()}_full.txt`);
      documents.push({ filename, content: plainText(card), ...(caption ? { caption } : {}) });
      const note = `… ${t(card.locale, 'card-telegram-rest-in-file', MAX_PARTS, filename)}`;
      parts = pack(blocks, TELEGRAM_LIMITS.text - note.length - SEPARATOR.length).slice(0, MAX_PARTS);
      parts[MAX_PARTS - 1] = `${parts[MAX_PARTS - 1]}${SEPARATOR}${escapeHtml(note)}`;
    }
  }
  if (parts.length === 0) parts = [escapeHtml(card.title ?? '…')];
  const keyboard = keyboardOf(card.buttons ?? [], webLinks);
  const photo = mode === 'post' ? photoOf(card) : undefined;
  return { parts, keyboard, photo, documents };
}
