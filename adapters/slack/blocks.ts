import type { types } from '@slack/bolt';
import type { ConfirmDialog } from '../../src/core/confirm-dialogs';
import type { CardButton, CardField, CardLink } from '../../src/core/reply';
import { isValidTime } from '../../src/core/times';
import { withTime } from '../text';
import { slackDateToken } from './date-token';
import { escapeText, escapeWithin, safeUrl, slackStep } from './escape';

type KnownBlock = types.KnownBlock;
type SectionBlock = types.SectionBlock;
type Button = types.Button;

/** Slack's documented limits that the renderer enforces. */
export const SLACK_LIMITS = {
  /** Blocks in one message. */
  blocks: 50,
  /** Characters of a section's text. */
  sectionText: 3000,
  /** Characters of one section field. */
  fieldText: 2000,
  /** Fields in one section. */
  fieldsPerSection: 10,
  /** Characters of a header block. */
  header: 150,
  /** Characters of a button's label. */
  buttonText: 75,
  /** Characters of a button's value. */
  buttonValue: 2000,
  /** Characters of a link button's URL. */
  buttonUrl: 3000,
  /** Elements in one actions block. */
  actionsPerBlock: 25,
  /** Characters of one context element (the documented limit is 3,000; footers stay short). */
  contextText: 2000,
} as const;

/** Prefix of the `action_id` of Deckhand buttons; the rest is the short action id. */
export const ACTION_PREFIX = 'dh.';
/** Prefix of link buttons' `action_id` (Slack still sends a click, which is only acknowledged). */
export const LINK_PREFIX = 'dh-link.';

/** A mrkdwn text object for untrusted text that is already escaped. */
export function mrkdwn(text: string): types.MrkdwnElement {
  return { type: 'mrkdwn', text, verbatim: true };
}

/** A plain_text object; the text is escaped within `max` characters (never cut inside an entity). */
export function plain(text: string, max: number): types.PlainTextElement {
  return { type: 'plain_text', text: escapeWithin(text, max).text, emoji: true };
}

/**
 * Splits text into pieces of at most `max` characters once escaped, at line ends where it can, and
 * never inside an HTML entity or a surrogate pair. Returns the escaped pieces. Stops once more than
 * `budget` escaped characters were produced (callers show no more than that), so the work is linear
 * in `min(budget, text)`; the pieces then add up to more than `budget`, which tells the caller so.
 */
export function chunkEscaped(raw: string, max: number, budget = Number.POSITIVE_INFINITY): string[] {
  const pieces: string[] = [];
  let produced = 0;
  let current = '';
  const push = () => {
    if (current) pieces.push(current);
    produced += current.length;
    current = '';
  };
  let start = 0;
  while (start <= raw.length && produced <= budget) {
    const newline = raw.indexOf('\n', start);
    const end = newline === -1 ? raw.length : newline;
    const escaped = end - start <= max ? escapeText(raw.slice(start, end)) : undefined;
    if (escaped !== undefined && escaped.length <= max) {
      const joined = current ? `${current}\n${escaped}` : escaped;
      if (joined.length > max) push();
      current = current ? `${current}\n${escaped}` : escaped;
    } else {
      // A long line: escaped character by character into pieces of at most `max`.
      push();
      for (let i = start; i < end && produced <= budget; ) {
        const { out, next } = slackStep(raw, i);
        if (current.length + out.length > max) push();
        current += out;
        i = next;
      }
    }
    start = end + 1;
  }
  push();
  return pieces;
}

/** The text of one field: bold label, then the value (linked when it has a URL) and its time token. */
function fieldText(
  field: CardField,
  max: number,
  zone: string | undefined,
  locale: string | undefined,
): { text: string; cut: boolean } {
  const label = `*${escapeText(field.label.replaceAll('*', '∗'))}*`;
  const url = field.url ? safeUrl(field.url) : undefined;
  const time = isValidTime(field.time) ? slackDateToken(field.time, zone, locale) : undefined;
  const room = max - label.length - 1 - (url ? url.length + 3 : 0) - (time ? time.length + 3 : 0);
  const { text: value, cut } = escapeWithin(field.value, Math.max(room, 20));
  const shown = url ? `<${url}|${value.replaceAll('|', '¦')}>` : value;
  return { text: `${label}\n${withTime(shown, time) || ' '}`, cut };
}

/**
 * Field sections: consecutive inline fields share a section (side by side, ≤ 10 per section), every
 * other field gets its own. `cut` is true when a value had to be shortened.
 */
export function fieldBlocks(
  fields: readonly CardField[],
  zone?: string,
  locale?: string,
): { blocks: SectionBlock[]; cut: boolean } {
  const blocks: SectionBlock[] = [];
  let cut = false;
  let inline: types.MrkdwnElement[] = [];
  const flush = () => {
    if (inline.length) blocks.push({ type: 'section', fields: inline });
    inline = [];
  };
  for (const field of fields) {
    if (field.inline) {
      const rendered = fieldText(field, SLACK_LIMITS.fieldText, zone, locale);
      cut ||= rendered.cut;
      inline.push(mrkdwn(rendered.text));
      if (inline.length === SLACK_LIMITS.fieldsPerSection) flush();
      continue;
    }
    flush();
    const rendered = fieldText(field, SLACK_LIMITS.sectionText, zone, locale);
    cut ||= rendered.cut;
    blocks.push({ type: 'section', text: mrkdwn(rendered.text) });
  }
  flush();
  return { blocks, cut };
}

/** Options of {@link actionBlocks}. */
export interface ActionOptions {
  /** The core's confirm dialogs by action id, rendered as Slack's `confirm` object. */
  dialogs: ReadonlyMap<string, ConfirmDialog>;
}

function button(spec: CardButton, options: ActionOptions): Button {
  const element: Button = {
    type: 'button',
    action_id: `${ACTION_PREFIX}${spec.actionId}`,
    text: plain(spec.label, SLACK_LIMITS.buttonText),
    value: spec.actionId.slice(0, SLACK_LIMITS.buttonValue),
  };
  if (spec.style) element.style = spec.style;
  const dialog = options.dialogs.get(spec.actionId);
  if (dialog) {
    // Block Kit confirmation dialog object: title ≤ 100, text ≤ 300, confirm/deny ≤ 30 characters.
    element.confirm = {
      title: plain(dialog.title, 100),
      text: plain(dialog.text, 300),
      confirm: plain(dialog.confirm, 30),
      deny: plain(dialog.deny, 30),
      ...(spec.style === 'danger' ? { style: 'danger' as const } : {}),
    };
  }
  return element;
}

function linkButton(link: CardLink, index: number): Button | undefined {
  const url = URL.canParse(link.url) ? new URL(link.url) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  if (url.toString().length > SLACK_LIMITS.buttonUrl) return undefined;
  return {
    type: 'button',
    action_id: `${LINK_PREFIX}${index}`,
    text: plain(link.label, SLACK_LIMITS.buttonText),
    url: url.toString(),
  };
}

/** Actions blocks for buttons and link buttons, at most 25 elements each. */
export function actionBlocks(
  buttons: readonly CardButton[],
  links: readonly CardLink[],
  options: ActionOptions,
): KnownBlock[] {
  const elements: Button[] = [
    ...buttons.map((b) => button(b, options)),
    ...links.map(linkButton).filter((b): b is Button => b !== undefined),
  ];
  const blocks: KnownBlock[] = [];
  for (let i = 0; i < elements.length; i += SLACK_LIMITS.actionsPerBlock) {
    blocks.push({ type: 'actions', elements: elements.slice(i, i + SLACK_LIMITS.actionsPerBlock) });
  }
  return blocks;
}
