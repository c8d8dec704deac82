import type { types } from '@slack/bolt';
import { type ConfirmDialog, dangerDialogs } from '../../src/core/confirm-dialogs';
import type { Card, CardStatus } from '../../src/core/reply';
import { isValidTime } from '../../src/core/times';
import { t } from '../../src/i18n/translate';
import { cardAsText, headOf, withTime } from '../text';
import { actionBlocks, chunkEscaped, fieldBlocks, mrkdwn, plain, SLACK_LIMITS } from './blocks';
import { slackDateToken } from './date-token';
import { escapeText, escapeWithin, fenceSafe } from './escape';
import type { SlackUpload } from './files';

type KnownBlock = types.KnownBlock;

/** Bar colour of a card's attachment, by status. */
export const STATUS_COLOR: Record<CardStatus, string> = {
  info: '#1d9bd1',
  progress: '#e8a723',
  success: '#2eb886',
  warning: '#daa038',
  danger: '#a30200',
};

/** Emoji shown before the title, so the status reads without colour too. */
export const STATUS_EMOJI: Record<CardStatus, string> = {
  info: ':information_source:',
  progress: ':hourglass_flowing_sand:',
  success: ':white_check_mark:',
  warning: ':warning:',
  danger: ':x:',
};

/** Most characters of text and code shown in one message; the rest goes to an attached file. */
export const MAX_SHOWN_CHARS = 12_000;

/** A card rendered for `chat.postMessage` / `chat.update` / `chat.postEphemeral` / `response_url`. */
export interface SlackMessage {
  /** Notification text (escaped). */
  text: string;
  /** One coloured attachment holding the Block Kit blocks. */
  attachments: types.MessageAttachment[];
  /** Files to upload with the message: the card's picture and attachments, and whatever did not fit. */
  files: SlackUpload[];
}

const CODE_FENCE = 8; // "```\n" + "\n```"

function fileSlug(card: Card): string {
  // Only the head can show: a 100,000-character title is not scanned whole.
  const base = (card.title ?? 'message')
    .slice(0, 400)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${base.slice(0, 40) || 'message'}.txt`;
}

/**
 * The card's picture: an `image` block for a public URL (Block Kit image block: `image_url` ≤ 3,000
 * characters, `alt_text` ≤ 2,000), or the PNG uploaded next to the message (files upload v2) with a
 * context line naming it, since an image block cannot show bytes that are not yet a Slack file.
 */
function imageBlocks(card: Card, files: SlackUpload[]): KnownBlock[] {
  const image = card.image;
  if (!image) return [];
  const alt = headOf(image.alt || 'chart', 2000);
  if (image.pngBase64) {
    const filename = image.filename.replace(/[^\w.-]+/g, '_') || 'image.png';
    files.push({ filename, content: Buffer.from(image.pngBase64, 'base64'), altText: alt });
    return [
      {
        type: 'context',
        elements: [
          mrkdwn(
            escapeWithin(`📈 ${t(card.locale, 'card-slack-picture-attached', alt, filename)}`, 300).text,
          ),
        ],
      },
    ];
  }
  if (image.url && /^https:\/\//.test(image.url) && image.url.length <= 3000) {
    return [{ type: 'image', image_url: image.url, alt_text: alt }];
  }
  return [];
}

/** Body blocks (text, fields, code) and whether anything was left out of them. */
function bodyBlocks(card: Card, room: number): { blocks: KnownBlock[]; overflow: boolean } {
  const blocks: KnownBlock[] = [];
  let overflow = false;
  let shown = 0;
  const addSection = (text: string) => {
    if (blocks.length >= room || shown + text.length > MAX_SHOWN_CHARS) {
      overflow = true;
      return;
    }
    shown += text.length;
    blocks.push({ type: 'section', text: mrkdwn(text) });
  };
  if (card.text?.trim()) {
    for (const piece of chunkEscaped(card.text, SLACK_LIMITS.sectionText, MAX_SHOWN_CHARS)) addSection(piece);
  }
  const fields = fieldBlocks(card.fields ?? [], card.timeZone, card.locale);
  overflow ||= fields.cut;
  for (const block of fields.blocks) {
    if (blocks.length >= room) {
      overflow = true;
      break;
    }
    blocks.push(block);
  }
  if (card.code?.text) {
    // Only the head of the code can be shown: fence-escape no more of it than that.
    const code = headOf(card.code.text, 2 * MAX_SHOWN_CHARS);
    if (code !== card.code.text) overflow = true;
    const pieces = chunkEscaped(fenceSafe(code), SLACK_LIMITS.sectionText - CODE_FENCE, MAX_SHOWN_CHARS);
    for (const piece of pieces) addSection(`\`\`\`\n${piece}\n\`\`\``);
  }
  return { blocks, overflow };
}

/**
 * Renders a card as Block Kit inside one attachment coloured by status: a header (status emoji and
 * title), sections for the text (split at 3,000 characters), fields, the code block in ``` fences,
 * buttons (those in `dialogs` with the core's question as Slack's confirm dialog), link buttons and a context footer. Every string
 * is escaped. What does not fit in 50 blocks (or {@link MAX_SHOWN_CHARS}) is attached as a file, and
 * the card says so.
 */
export function renderCard(
  card: Card,
  dialogs: ReadonlyMap<string, ConfirmDialog> = dangerDialogs(card),
): SlackMessage {
  const head: KnownBlock[] = [];
  const status = card.status ?? 'info';
  if (card.title) {
    head.push({ type: 'header', text: plain(`${STATUS_EMOJI[status]} ${card.title}`, SLACK_LIMITS.header) });
  }
  const tail: KnownBlock[] = actionBlocks(card.buttons ?? [], card.links ?? [], {
    dialogs,
  });
  const footerTime = isValidTime(card.footerTime)
    ? slackDateToken(card.footerTime, card.timeZone, card.locale)
    : undefined;
  if (card.footer || footerTime) {
    const footer = escapeWithin(
      card.footer ?? '',
      SLACK_LIMITS.contextText - (footerTime?.length ?? 0) - 3,
    ).text;
    tail.push({ type: 'context', elements: [mrkdwn(withTime(footer, footerTime))] });
  }
  const files: SlackUpload[] = [];
  const picture = imageBlocks(card, files);
  const room = SLACK_LIMITS.blocks - head.length - tail.length - picture.length - 1;
  const body = bodyBlocks(card, room);
  body.blocks.push(...picture);
  files.push(...(card.attachments ?? []));
  if (body.overflow) {
    const name = fileSlug(card);
    files.push({ filename: name, content: cardAsText(card).trimEnd() });
    body.blocks.push({
      type: 'context',
      elements: [mrkdwn(t(card.locale, 'card-slack-overflow', escapeText(name)))],
    });
  }
  const blocks = [...head, ...body.blocks, ...tail];
  if (blocks.length === 0) blocks.push({ type: 'section', text: mrkdwn(' ') });
  // The notification text: the head of title and text, on one line, escaped within 300 characters.
  const summary = headOf([card.title, card.text].filter(Boolean).join(': '), 301) || 'Deckhand';
  const text = escapeWithin(summary.replaceAll('\n', ' '), 300).text;
  return {
    text,
    attachments: [{ color: STATUS_COLOR[status], fallback: text, blocks }],
    files,
  };
}
