/**
 * Words typed in the wrong order: `/jobs mytool list` (the subcommand after the tool) and
 * `/logs web mytool` (the tool after the job). When moving one word makes a command line that
 * resolves, the usage error says which line was meant: "Did you mean `/jobs list mytool`?".
 * Only short lines are suggested back, each word clipped, so a pasted blob is never echoed whole.
 */
import { type Translator, translator } from '../i18n/translate';
import type { Token } from './tokenize';

/** Longest line (in words) that is suggested back. */
const MAX_WORDS = 8;
/** Longest word that is suggested back. */
const MAX_WORD = 64;

/** A token as it would be typed again: quoted when it was quoted or holds a space. */
function typed(token: Token): string {
  return token.quoted || /\s/.test(token.text) ? `"${token.text}"` : token.text;
}

function suggestion(words: readonly string[], say: Translator): string {
  return say.t('did-you-mean', `\`${words.join(' ')}\``);
}

function shortEnough(tokens: readonly Token[]): boolean {
  return tokens.length <= MAX_WORDS && tokens.every((t) => t.text.length <= MAX_WORD);
}

/**
 * `/jobs mytool list` → "Did you mean `/jobs list mytool`?": a later word of the line is one of the
 * subcommands `choices` of `path`; undefined when none is.
 */
export function subcommandLater(
  path: readonly string[],
  after: readonly Token[],
  choices: readonly string[],
  say: Translator = translator('en'),
): string | undefined {
  if (!shortEnough(after)) return undefined;
  const at = after.findIndex((t, i) => i > 0 && !t.quoted && choices.includes(t.text.toLowerCase()));
  if (at < 0) return undefined;
  const moved = after[at] as Token;
  const others = after.filter((_, i) => i !== at).map(typed);
  return suggestion([`/${path.join(' ')}`, moved.text.toLowerCase(), ...others], say);
}

/**
 * `/logs web mytool` → "Did you mean `/logs mytool web`?": the word where the tool belongs names no
 * tool Deckhand knows, and another positional word does. `positional` is the command's list of
 * positional argument keys; `rest` the words after the command's name (flags end the positionals).
 */
export function toolElsewhere(
  name: string,
  positional: readonly string[],
  rest: readonly Token[],
  tools: ReadonlySet<string>,
  say: Translator = translator('en'),
): string | undefined {
  const toolAt = positional.indexOf('tool');
  if (toolAt < 0 || !shortEnough(rest)) return undefined;
  const firstFlag = rest.findIndex((t) => !t.quoted && t.text.startsWith('--'));
  const words = firstFlag < 0 ? [...rest] : rest.slice(0, firstFlag);
  const given = words[toolAt];
  if (!given || tools.has(given.text)) return undefined;
  const other = words.findIndex((t, i) => i !== toolAt && i < positional.length && tools.has(t.text));
  if (other < 0) return undefined;
  const swapped = [...words];
  swapped[toolAt] = words[other] as Token;
  swapped[other] = given;
  const flags = firstFlag < 0 ? [] : rest.slice(firstFlag);
  return suggestion([`/${name}`, ...[...swapped, ...flags].map(typed)], say);
}
