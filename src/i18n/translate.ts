/**
 * The one way Deckhand's words reach a reader: a message key of `i18n/en.json`, rendered in the
 * reader's language by banana-i18n (the format translatewiki.net uses: `$1` parameters,
 * `{{PLURAL:$1|…}}`, `{{GENDER:$1|…}}`), English where a translation lacks the key. Parameters that
 * are names, ids or URLs are wrapped in Unicode isolates (FSI … PDI) where they could be reordered by
 * the text around them: in a right-to-left language always, in a left-to-right one when the value
 * itself holds right-to-left letters.
 */
import Banana from 'banana-i18n';
import type English from '../../i18n/en.json';
import { catalogOf } from './catalog-text';
import { DEFAULT_LANGUAGE, isRightToLeft, type Language, spokenLanguage } from './languages';

/** A key of the English catalog: every message Deckhand says. */
export type MessageKey = Exclude<keyof typeof English, '@metadata'>;

/** A message parameter: text (isolated when it needs to be) or a number (for `{{PLURAL:…}}`). */
export type MessageParam = string | number;

/** First Strong Isolate and Pop Directional Isolate. */
export const FSI = '\u2068';
export const PDI = '\u2069';

/** The values of a `{{GENDER:$n|…}}` parameter: words of the format, never isolated. */
const GENDERS: ReadonlySet<string> = new Set(['male', 'female', 'unknown']);

const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;

const instances = new Map<Language, Banana>();

/**
 * banana-i18n's renderer for `language`, its messages looked up in that language's catalog, then in
 * English (the key itself when neither holds it, as banana-i18n does).
 */
function bananaFor(language: Language): Banana {
  let banana = instances.get(language);
  if (!banana) {
    banana = new Banana(language, { finalFallback: DEFAULT_LANGUAGE });
    banana.getMessage = (key) =>
      catalogOf(language).message(key) ?? catalogOf(DEFAULT_LANGUAGE).message(key) ?? key;
    instances.set(language, banana);
  }
  return banana;
}

/** True for a key of the English catalog. */
export function isMessageKey(key: string): key is MessageKey {
  return catalogOf(DEFAULT_LANGUAGE).message(key) !== undefined;
}

/** `value` wrapped in FSI … PDI when, written in `language`, it could be reordered by the text around it. */
export function isolate(language: string, value: string): string {
  if (value === '' || value.startsWith(FSI) || GENDERS.has(value)) return value;
  return isRightToLeft(language) || RTL_LETTER.test(value) ? `${FSI}${value}${PDI}` : value;
}

/** The language to write in for a code (`de-AT` → `de`), English for one Deckhand does not speak. */
export function languageOf(code: string | undefined): Language {
  return spokenLanguage(code) ?? DEFAULT_LANGUAGE;
}

/**
 * The message `key` in the language of `locale` with its parameters: `t('de', 'deploy-card-done', 'mytool')`.
 * Numbers stay numbers (for `{{PLURAL:…}}`); text parameters are isolated as {@link isolate} says.
 */
export function t(locale: string | undefined, key: MessageKey, ...params: MessageParam[]): string {
  const language = languageOf(locale);
  const values = params.map((p) => (typeof p === 'string' ? isolate(language, p) : p));
  return bananaFor(language).i18n(key, ...values);
}

/** A reader's language, with the message, number, size and date formatting of it. */
export interface Translator {
  /** The catalog language (`en`, `de`, `he`). */
  readonly language: Language;
  /** `ltr` or `rtl`. */
  readonly direction: 'ltr' | 'rtl';
  /** A message of the catalog (see {@link t}). */
  t(key: MessageKey, ...params: MessageParam[]): string;
  /** A number with the language's digits grouping: `12,345` / `12.345`. */
  number(value: number): string;
  /** A size in bytes, in the largest unit that keeps it ≥ 1: `1.5 MB` / `1,5 MB`. */
  size(bytes: number): string;
  /** A day and time in `zone`: `Sat 28 Nov 2026, 12:52` / `Sa., 28. Nov. 2026, 12:52`. */
  date(at: number, zone: string): string;
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

const translators = new Map<Language, Translator>();

/** The translator of a locale code (cached per language). */
export function translator(locale: string | undefined): Translator {
  const language = languageOf(locale);
  const cached = translators.get(language);
  if (cached) return cached;
  const numbers = new Intl.NumberFormat(language);
  const made: Translator = {
    language,
    direction: isRightToLeft(language) ? 'rtl' : 'ltr',
    t: (key, ...params) => t(language, key, ...params),
    number: (value) => numbers.format(value),
    size: (bytes) => {
      let unit = 0;
      let value = bytes;
      while (Math.abs(value) >= 1000 && unit < UNITS.length - 1) {
        value /= 1000;
        unit += 1;
      }
      const format = new Intl.NumberFormat(language, {
        style: 'unit',
        unit: UNITS[unit],
        unitDisplay: 'short',
        maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0,
      });
      return format.format(value);
    },
    date: (at, zone) =>
      new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : language, {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: zone,
      }).format(at),
  };
  translators.set(language, made);
  return made;
}
