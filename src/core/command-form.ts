/**
 * How a command is typed on each platform — the one place that decides it. Deckhand's texts (help,
 * usage lines, examples, hints) are written in the plain form `/deploy mytool`; on a platform where
 * Deckhand has one namespaced slash command, the same line reads `/deckhand deploy mytool`.
 */
import type { Platform } from './conversation';
import type { Card } from './reply';

/** The way commands are written in one conversation. */
export interface CommandForm {
  /** The words typed before a command's name: `/` or `/deckhand `. */
  readonly prefix: string;
  /** `deploy mytool` (or `/deploy mytool`) as typed here: `/deploy mytool` or `/deckhand deploy mytool`. */
  line(commandLine: string): string;
  /** Rewrites every `/group` mention of a known command group in a text written in the plain form. */
  text(text: string): string;
}

/** The plain form, `/deploy mytool` (every platform without a namespaced command, the terminal). */
export const PLAIN_FORM: CommandForm = {
  prefix: '/',
  line: (commandLine) => `/${commandLine.replace(/^\//, '')}`,
  text: (text) => text,
};

const MENTION_BEFORE = String.raw`(^|[\s\`"'(\[])`;
const MENTION_AFTER = String.raw`(?=$|[\s\`"'),.;:!?\]])`;

/**
 * The namespaced form: `namespace` is the one slash command (`deckhand`) and `groups` the command
 * groups it takes as its first word. Only whole mentions are rewritten — `/deploy` at the start of a
 * word and followed by a space, a quote or punctuation — so paths (`/tool/x`) and URLs stay as they are.
 */
export function namespacedForm(namespace: string, groups: readonly string[]): CommandForm {
  const prefix = `/${namespace} `;
  const names = [...groups].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const mention = new RegExp(`${MENTION_BEFORE}/(${names.join('|')})${MENTION_AFTER}`, 'g');
  return {
    prefix,
    line: (commandLine) => `${prefix}${commandLine.replace(/^\//, '')}`,
    text: (text) => (names.length === 0 ? text : text.replace(mention, `$1${prefix}$2`)),
  };
}

/** Chooses the form of each platform: a namespaced one from its settings, the plain form elsewhere. */
export type CommandForms = (platform: Platform) => CommandForm;

/** Every platform in the plain form. */
export const plainForms: CommandForms = () => PLAIN_FORM;

/**
 * A card with its command mentions in `form`: title, text, fields and footer. Code blocks and
 * attachments (logs, configuration) are left exactly as they are.
 */
export function cardInForm<C extends Card>(card: C, form: CommandForm): C {
  if (form === PLAIN_FORM) return card;
  const out: C = { ...card };
  if (card.title) out.title = form.text(card.title);
  if (card.text) out.text = form.text(card.text);
  if (card.footer) out.footer = form.text(card.footer);
  if (card.fields) {
    out.fields = card.fields.map((field) => ({
      ...field,
      label: form.text(field.label),
      value: form.text(field.value),
    }));
  }
  return out;
}

/** Escapes `text` so a regular expression matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The forms of a running Deckhand: each platform with one namespaced command (`namespaces`, by
 * platform: `deckhand`) over the registry's command groups, the plain form on every other platform.
 */
export function namespacedForms(
  namespaces: ReadonlyMap<Platform, string>,
  groups: readonly string[],
): CommandForms {
  const forms = new Map([...namespaces].map(([platform, name]) => [platform, namespacedForm(name, groups)]));
  return (platform) => forms.get(platform) ?? PLAIN_FORM;
}
