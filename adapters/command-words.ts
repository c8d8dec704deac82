/**
 * Deckhand's texts name commands in the plain form (`/deploy mytool`); where commands are typed with
 * a prefix instead (the descriptor's `commandPrefix`, e.g. `!deploy mytool` where clients take a
 * leading `/` as their own command), an adapter shows its cards in those words. This rewrites whole mentions of known command groups — `/deploy` at the start of a word, followed
 * by a space, quote or punctuation — so paths (`/tool/x`) and URLs stay as they are. One regular
 * expression pass without backtracking over the text (linear time).
 */

import type { Config } from '../src/config';
import type { Card } from '../src/core/reply';
import type { PlatformDescriptor } from './descriptor';

const BEFORE = String.raw`(^|[\s\`"'(\[])`;
const AFTER = String.raw`(?=$|[\s\`"'),.;:!?\]])`;

/** A rewriter of `/group` mentions to `<prefix>group`; the identity when there are no groups. */
export function commandWords(prefix: string, groups: readonly string[]): (text: string) => string {
  if (groups.length === 0) return (text) => text;
  const names = [...groups]
    .sort((a, b) => b.length - a.length)
    .map((g) => g.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const mention = new RegExp(`${BEFORE}/(${names.join('|')})${AFTER}`, 'g');
  const replacement = `$1${prefix.replaceAll('$', '$$$$')}$2`;
  return (text) => text.replace(mention, replacement);
}

/** The rewriter for `descriptor`'s platform (the identity where commands are typed with `/`). */
export function platformCommandWords(
  descriptor: Pick<PlatformDescriptor, 'commandPrefix'>,
  config: Config,
  groups: readonly string[],
): (text: string) => string {
  const prefix = descriptor.commandPrefix?.(config);
  return prefix === undefined ? (text) => text : commandWords(prefix, groups);
}

/** `card` with its texts (title, text, footer, field values) in `words`. */
export function cardInWords(card: Card, words: (text: string) => string): Card {
  const out: Card = { ...card };
  if (card.title) out.title = words(card.title);
  if (card.text) out.text = words(card.text);
  if (card.footer) out.footer = words(card.footer);
  if (card.fields) out.fields = card.fields.map((f) => ({ ...f, value: words(f.value) }));
  return out;
}
