/**
 * Counts in words, `1 file` / `4 files` / `4 categories`: the one plural helper of every message.
 * English plural categories come from `Intl.PluralRules`; the plural form is the regular English one
 * unless given.
 */
const RULES = new Intl.PluralRules('en-US');

/** The regular English plural of a noun: `file` → `files`, `category` → `categories`, `box` → `boxes`. */
export function pluralOf(noun: string): string {
  if (/[^aeiou]y$/i.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

/** `count` and the noun in the right number: `plural(1, 'file')` → `1 file`, `plural(4, 'category')` → `4 categories`. */
export function plural(count: number, noun: string, many: string = pluralOf(noun)): string {
  return `${count.toLocaleString('en-US')} ${nounFor(count, noun, many)}`;
}

/** Only the noun, in the right number for `count` (`file` or `files`). */
export function nounFor(count: number, noun: string, many: string = pluralOf(noun)): string {
  return RULES.select(count) === 'one' ? noun : many;
}
