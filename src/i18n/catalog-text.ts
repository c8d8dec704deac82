/**
 * A message catalog (`i18n/<language>.json`, a flat JSON object of strings with an `@metadata`
 * object) kept as its text, each message found and decoded on its first use. A process says a few
 * hundred of the catalog's thousands of messages, and parsing the whole file cost more than every
 * other part of loading a language: reading is all a language costs until a message is asked for.
 *
 * The lookup relies on what JSON guarantees: inside a string every `"` is escaped, so a quote that
 * is not preceded by an odd number of backslashes delimits a string, and `"key"` followed by `:` is a
 * member name. Members of `@metadata` are not messages and are skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language } from './languages';

const BACKSLASH = 92;
const SPACE = 32;

/** True when the `"` at `at` delimits a string (is not escaped by a backslash). */
function delimits(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 0;
}

/** The index of the first unescaped `"` at or after `from` (-1 when there is none). */
function closingQuote(text: string, from: number): number {
  let at = text.indexOf('"', from);
  while (at !== -1 && !delimits(text, at)) at = text.indexOf('"', at + 1);
  return at;
}

/** The first index at or after `from` that is not JSON whitespace. */
function skipSpace(text: string, from: number): number {
  let at = from;
  while (text.charCodeAt(at) <= SPACE && at < text.length) at++;
  return at;
}

/** The index just past the object that opens at `open` (`{`), strings with braces in them skipped. */
function objectEnd(text: string, open: number): number {
  let depth = 0;
  for (let at = open; at < text.length; at++) {
    const char = text[at];
    if (char === '"') at = closingQuote(text, at + 1);
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return at + 1;
    if (at === -1) break;
  }
  return text.length;
}

/** One language's catalog: its text, and the messages decoded so far. */
export class CatalogText {
  private readonly decoded = new Map<string, string | undefined>();
  /** Where `@metadata`'s object lies (members there are not messages). */
  private readonly metadata: readonly [number, number];

  /** @param text the catalog file's whole text */
  constructor(private readonly text: string) {
    const name = text.indexOf('"@metadata"');
    const open = name === -1 ? -1 : text.indexOf('{', name);
    this.metadata = open === -1 ? [0, 0] : [open, objectEnd(text, open)];
  }

  /** The message `key`, or undefined when the catalog does not hold it. */
  message(key: string): string | undefined {
    if (this.decoded.has(key)) return this.decoded.get(key);
    const found = this.find(key);
    this.decoded.set(key, found);
    return found;
  }

  /** Every message key (decodes the whole file: for tests and measurements, not for saying). */
  keys(): string[] {
    return Object.keys(JSON.parse(this.text) as object).filter((key) => key !== '@metadata');
  }

  private find(key: string): string | undefined {
    const name = `"${key}"`;
    const [metadataStart, metadataEnd] = this.metadata;
    for (let at = this.text.indexOf(name); at !== -1; at = this.text.indexOf(name, at + 1)) {
      if (!delimits(this.text, at) || (at > metadataStart && at < metadataEnd)) continue;
      const colon = skipSpace(this.text, at + name.length);
      if (this.text[colon] !== ':') continue;
      const open = skipSpace(this.text, colon + 1);
      if (this.text[open] !== '"') return undefined;
      const close = closingQuote(this.text, open + 1);
      return close === -1 ? undefined : (JSON.parse(this.text.slice(open, close + 1)) as string);
    }
    return undefined;
  }
}

/**
 * The `i18n/` folder: the nearest one above this module, wherever it runs from (the sources, the
 * built `dist/` or a bundle elsewhere in the repository).
 */
function catalogFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'i18n');
    if (existsSync(join(candidate, 'en.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('the message catalogs (i18n/en.json) were not found above this program');
    dir = parent;
  }
}

let folder: string | undefined;
const catalogs = new Map<Language, CatalogText>();

/** The catalog of `language`, read from `i18n/<language>.json` on its first use. */
export function catalogOf(language: Language): CatalogText {
  let catalog = catalogs.get(language);
  if (!catalog) {
    folder ??= catalogFolder();
    catalog = new CatalogText(readFileSync(join(folder, `${language}.json`), 'utf8'));
    catalogs.set(language, catalog);
  }
  return catalog;
}
