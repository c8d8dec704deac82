/**
 * Deckhand's texts name commands in the plain form (`/deploy mytool`); in Matrix rooms commands are
 * typed with the prefix (`!deploy mytool`), since clients take a leading `/` as their own command.
 * This rewrites whole mentions of known command groups — `/deploy` at the start of a word, followed
 * by a space, quote or punctuation — so paths (`/tool/x`) and URLs stay as they are. One regular
 * expression pass without backtracking over the text (linear time).
 */

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
