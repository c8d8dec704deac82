/**
 * The languages Deckhand speaks, and how a platform's or a user's language code maps onto one of
 * them: `de-AT`, `de_DE` and `DE` are German, `iw` (the old code) is Hebrew, anything else is not
 * spoken (the next source of the reader's language is asked).
 */

/** Every language with a catalog under `i18n/`, English first (the fallback of every message). */
export const LANGUAGES = ['en', 'de', 'he'] as const;

/** A language Deckhand has a catalog for. */
export type Language = (typeof LANGUAGES)[number];

/** The language of a reader nothing else says anything about. */
export const DEFAULT_LANGUAGE: Language = 'en';

/** Languages written right to left: their texts isolate left-to-right values (tool names, ids, URLs). */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['he', 'ar', 'fa', 'ur', 'yi']);

/** Retired codes still sent by some clients. */
const ALIASES: Readonly<Record<string, string>> = { iw: 'he', ji: 'yi' };

/** Each language's name in itself, for `/language` and the docs. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  de: 'Deutsch',
  he: 'עברית',
};

/**
 * The catalog language of a language code (`de-DE`, `en_GB`, `he`, `iw`), or undefined when Deckhand
 * does not speak it (or the code is no language code at all).
 */
export function spokenLanguage(code: string | undefined | null): Language | undefined {
  if (!code) return undefined;
  const base = code.trim().toLowerCase().split(/[-_]/, 1)[0] ?? '';
  if (!/^[a-z]{2,3}$/.test(base)) return undefined;
  const language = ALIASES[base] ?? base;
  return (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : undefined;
}

/** True for a language written right to left. */
export function isRightToLeft(language: string): boolean {
  return RIGHT_TO_LEFT.has(language);
}
