/**
 * Renders the neutral {@link Card} as one Discord message: an embed coloured by status (title,
 * description, fields, code block, footer), rows of buttons (custom_id = the short action id) and
 * link buttons, and files. Discord's limits are applied here: what does not fit (a long log, a long
 * text, more than 25 fields) is cut and attached in full as a file, and every message carries
 * `allowed_mentions: { parse: [] }` so nothing in it can ping anyone. Untrusted text is escaped
 * within its limit in one pass ({@link escapeWithin}), so the work is bounded by the limits, not by
 * the length of the text, and a cut never falls inside an escape.
 */
import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIEmbedField,
  ButtonStyle,
  ComponentType,
  type RawFile,
} from 'discord.js';
import type { Card, CardStatus } from '../../src/core/reply';
import { isValidTime, timeText } from '../../src/core/times';
import { t } from '../../src/i18n/translate';
import { cardAsText, tailOf, truncate, withTime } from '../text';
import { codeBlock, codeBlockOverhead, escapeWithin, fenceSafe } from './escape';
import { discordTimestamp } from './timestamp';

/** Discord's message limits (https://discord.com/developers/docs/resources/message). */
export const LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  embedTotal: 6000,
  buttonsPerRow: 5,
  rows: 5,
  buttonLabel: 80,
  customId: 100,
  files: 10,
  /** Bytes per file we attach (Discord's default upload limit is 10 MiB). */
  fileBytes: 8 * 1024 * 1024,
} as const;

/** Embed colour of each status. */
export const STATUS_COLOURS: Record<CardStatus, number> = {
  info: 0x5865f2,
  progress: 0x3498db,
  success: 0x57f287,
  warning: 0xfee75c,
  danger: 0xed4245,
};

/** Never ping anyone: not `@everyone`, roles, users, nor the replied-to author. */
export const NO_MENTIONS = { parse: [] as never[] };

/** A message body as Discord's create/edit endpoints take it. */
export interface DiscordMessageBody {
  content?: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIComponentInMessageActionRow>[];
  attachments: { id: string; filename: string }[];
  allowed_mentions: typeof NO_MENTIONS;
  flags?: number;
}

/** A rendered card: the JSON body and the files to upload with it. */
export interface RenderedMessage {
  body: DiscordMessageBody;
  files: RawFile[];
}

/** Options of {@link renderCard}. */
export interface RenderOptions {
  /** Shown as the embed author (who asked for this card). */
  author?: string;
}

/** Renders a card as one message, within every limit. */
export function renderCard(card: Card, options: RenderOptions = {}): RenderedMessage {
  const files: { name: string; content: string }[] = [];
  const notes: string[] = [];
  const embed: APIEmbed = { color: STATUS_COLOURS[card.status ?? 'info'] };
  if (card.title) embed.title = escapeWithin(card.title, LIMITS.title).text;
  if (options.author) embed.author = { name: truncate(options.author, LIMITS.author) };

  const { fields, cut: fieldsCut } = renderFields(card);
  // An embed footer shows no markdown, so its time is text (in the conversation's zone).
  const footerTime = isValidTime(card.footerTime)
    ? timeText(card.footerTime, card.timeZone, false, Date.now(), card.locale)
    : undefined;
  const footerBase = withTime(card.footer ? escapeWithin(card.footer, 900).text : '', footerTime);
  const fixed =
    (embed.title?.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    footerBase.length +
    fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  const budget = Math.min(LIMITS.description, LIMITS.embedTotal - fixed - 120);

  const fitted = escapeWithin(card.text ?? '', budget);
  const text = fitted.text;
  let textCut = fitted.cut;
  let description = text;
  if (card.code) {
    const overhead = codeBlockOverhead(card.code.language);
    // The fenced code is at least as long as the code: only build it when it may fit.
    const full =
      !textCut && text.length + 1 + overhead + card.code.text.length <= budget
        ? `${text}${text ? '\n' : ''}${codeBlock(card.code.text, card.code.language)}`
        : undefined;
    if (full !== undefined && full.length <= budget) {
      description = full;
    } else {
      const name = attachmentName(card, 'output.txt');
      files.push({ name, content: card.code.text });
      notes.push(t(card.locale, 'card-discord-output-attached', name));
      const kept = escapeWithin(card.text ?? '', Math.floor(budget / 2));
      textCut = kept.cut;
      const room = budget - kept.text.length - 1 - overhead - 2;
      const tail = tailLines(card.code.text, room);
      description = `${kept.text}${kept.text ? '\n' : ''}${tail === undefined ? '' : codeBlock(tail, card.code.language)}`;
    }
  }
  if (textCut || fieldsCut) {
    files.push({ name: 'message.txt', content: cardAsText(card) });
    notes.push(t(card.locale, 'card-discord-text-attached', 'message.txt'));
  }

  const { rows, dropped } = renderButtons(card);
  if (dropped > 0) notes.push(t(card.locale, 'card-discord-more-buttons', dropped));

  for (const attachment of card.attachments ?? [])
    files.push({ name: attachment.filename, content: attachment.content });
  const shownFiles = files.slice(0, LIMITS.files);
  if (files.length > shownFiles.length)
    notes.push(t(card.locale, 'card-discord-more-files', files.length - shownFiles.length));

  const footer = [footerBase, ...notes].filter(Boolean).join(' · ');
  if (description) embed.description = description;
  if (fields.length) embed.fields = fields;
  if (footer) embed.footer = { text: truncate(footer, LIMITS.footer) };
  if (!embed.title && !embed.description && !embed.fields) embed.description = '\u200b';

  const uploads = shownFiles.map((file) => toRawFile(file.name, file.content));
  const picture = imageOf(card);
  if (picture?.file && uploads.length >= LIMITS.files) uploads.pop();
  if (picture?.file) uploads.unshift(picture.file);
  if (picture) embed.image = { url: picture.url };
  return {
    body: {
      embeds: [embed],
      components: rows,
      attachments: uploads.map((file, index) => ({ id: String(index), filename: file.name })),
      allowed_mentions: NO_MENTIONS,
    },
    files: uploads,
  };
}

/** A plain notice (no embed), e.g. "open the form" prompts; content is cut to 2,000 characters. */
export function renderNotice(
  text: string,
  components: DiscordMessageBody['components'] = [],
): RenderedMessage {
  return {
    body: {
      content: truncate(text, LIMITS.content),
      embeds: [],
      components,
      attachments: [],
      allowed_mentions: NO_MENTIONS,
    },
    files: [],
  };
}

function renderFields(card: Card): { fields: APIEmbedField[]; cut: boolean } {
  const all = card.fields ?? [];
  let cut = all.length > LIMITS.fields;
  const fields = all.slice(0, LIMITS.fields).map((field) => {
    const name = escapeWithin(field.label, LIMITS.fieldName).text || '\u200b';
    const url = linkTarget(field.url);
    const time = isValidTime(field.time) ? discordTimestamp(field.time) : undefined;
    // The link's target is ours; its label (the value) is escaped within what the link leaves.
    const room = LIMITS.fieldValue - (url ? url.length + 4 : 0) - (time ? time.length + 3 : 0);
    const fitted = escapeWithin(field.value, room);
    cut ||= fitted.cut;
    const value = withTime(url && fitted.text ? `[${fitted.text}](${url})` : fitted.text, time);
    return { name, value: value || '\u200b', ...(field.inline ? { inline: true } : {}) };
  });
  // Keep the embed under its total: drop fields from the end (they stay in the attached text).
  let total = fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  while (total > LIMITS.embedTotal - 2000 && fields.length > 0) {
    const last = fields.pop() as APIEmbedField;
    total -= last.name.length + last.value.length;
    cut = true;
  }
  return { fields, cut };
}

function renderButtons(card: Card): {
  rows: APIActionRowComponent<APIComponentInMessageActionRow>[];
  dropped: number;
} {
  const buttons: APIButtonComponent[] = [];
  for (const button of card.buttons ?? []) {
    if (button.actionId.length > LIMITS.customId) continue;
    buttons.push({
      type: ComponentType.Button,
      custom_id: button.actionId,
      label: truncate(button.label, LIMITS.buttonLabel),
      style:
        button.style === 'danger'
          ? ButtonStyle.Danger
          : button.style === 'primary'
            ? ButtonStyle.Primary
            : ButtonStyle.Secondary,
    });
  }
  for (const link of card.links ?? []) {
    if (!/^https?:\/\//.test(link.url) || link.url.length > 512) continue;
    buttons.push({
      type: ComponentType.Button,
      style: ButtonStyle.Link,
      url: link.url,
      label: truncate(link.label, LIMITS.buttonLabel),
    });
  }
  const max = LIMITS.buttonsPerRow * LIMITS.rows;
  const shown = buttons.slice(0, max);
  const rows: APIActionRowComponent<APIComponentInMessageActionRow>[] = [];
  for (let i = 0; i < shown.length; i += LIMITS.buttonsPerRow) {
    rows.push({ type: ComponentType.ActionRow, components: shown.slice(i, i + LIMITS.buttonsPerRow) });
  }
  return { rows, dropped: buttons.length - shown.length };
}

/** The last lines of `text` that fit in `room` characters (after code-fence escaping), or undefined. */
function tailLines(text: string, room: number): string | undefined {
  if (room < 20) return undefined;
  const lines = text.split('\n');
  const kept: string[] = [];
  let used = 2; // "…\n"
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = fenceSafe(lines[i] as string);
    if (used + line.length + 1 > room) {
      // A suffix of a fence-safe line is fence-safe; tailOf never starts inside a surrogate pair.
      if (kept.length === 0) kept.unshift(tailOf(line, room - used - 1));
      break;
    }
    kept.unshift(lines[i] as string);
    used += line.length + 1;
  }
  return `…\n${kept.join('\n')}`;
}

/** A field's URL as the target of a masked link (http(s) only, parentheses and spaces encoded), or undefined. */
function linkTarget(url: string | undefined): string | undefined {
  if (!url || !/^https?:\/\//i.test(url) || !URL.canParse(url)) return undefined;
  const href = new URL(url).href.replaceAll('(', '%28').replaceAll(')', '%29');
  return href.length <= 512 ? href : undefined;
}

function attachmentName(card: Card, fallback: string): string {
  // Only the head can show: a 100,000-character title is not scanned whole.
  const slug = (card.title ?? '')
    .slice(0, 400)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return slug ? `${slug}.txt` : fallback;
}

/**
 * The card's picture as the embed's image: a PNG is uploaded with the message and referenced as
 * `attachment://<name>` (Discord's "Uploading Files" / "Using Attachments within Embeds"); a public URL
 * is used as it is.
 */
function imageOf(card: Card): { url: string; file?: RawFile } | undefined {
  const image = card.image;
  if (!image) return undefined;
  if (image.pngBase64) {
    const name = image.filename.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || 'image.png';
    const data = Buffer.from(image.pngBase64, 'base64');
    if (data.length > LIMITS.fileBytes) return undefined;
    return { url: `attachment://${name}`, file: { name, data, contentType: 'image/png' } };
  }
  if (image.url && /^https?:\/\//.test(image.url) && image.url.length <= 2048) return { url: image.url };
  return undefined;
}

function toRawFile(name: string, content: string): RawFile {
  let data = Buffer.from(content, 'utf8');
  if (data.length > LIMITS.fileBytes) data = data.subarray(data.length - LIMITS.fileBytes);
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || 'file.txt';
  return { name: safe, data, contentType: 'text/plain; charset=utf-8' };
}
