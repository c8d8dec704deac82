/**
 * "Did you mean": the known words closest to a mistyped one (a command, a subcommand, a flag, a
 * choice), by edit distance from `fastest-levenshtein`. Decided here once for every platform.
 */
import { distance } from 'fastest-levenshtein';
import { isolate, type Translator, translator } from '../i18n/translate';

/**
 * Most edits a typo may be from what was meant: one for words of up to three letters, two up to six
 * (a swapped pair of letters, `deplyo`, is two edits), then a third of the word's length.
 */
function allowedEdits(length: number): number {
  if (length <= 3) return 1;
  if (length <= 6) return 2;
  return Math.floor(length / 3);
}

/**
 * The candidates closest to `typed` within the allowed edits, best first (at most `max`, ties kept in
 * the candidates' order). A candidate that starts with what was typed (`/dep` → `deploy`) counts as
 * one edit away. Empty when nothing is close.
 */
export function closestWords(typed: string, candidates: readonly string[], max = 2): string[] {
  const word = typed.toLowerCase();
  if (!word) return [];
  const limit = allowedEdits(word.length);
  const scored: { candidate: string; edits: number; index: number }[] = [];
  candidates.forEach((candidate, index) => {
    const lower = candidate.toLowerCase();
    if (lower === word) return;
    const prefix = word.length >= 3 && lower.startsWith(word) ? 1 : Number.POSITIVE_INFINITY;
    const edits = Math.min(distance(word, lower), prefix);
    if (edits <= limit) scored.push({ candidate, edits, index });
  });
  scored.sort((a, b) => a.edits - b.edits || a.index - b.index);
  const best = scored[0]?.edits;
  return scored
    .filter((s) => s.edits === best)
    .slice(0, max)
    .map((s) => s.candidate);
}

/**
 * `Did you mean /deploy?` or `Did you mean /deploy or /deployment?` in `say`'s language (English by
 * default); undefined when nothing is close.
 */
export function didYouMean(
  typed: string,
  candidates: readonly string[],
  show: (word: string) => string = (word) => word,
  say: Translator = translator('en'),
): string | undefined {
  const close = closestWords(typed, candidates);
  if (close.length === 0) return undefined;
  const shown = close.map((word) => isolate(say.language, show(word)));
  return say.t('did-you-mean', new Intl.ListFormat(say.language, { type: 'disjunction' }).format(shown));
}
