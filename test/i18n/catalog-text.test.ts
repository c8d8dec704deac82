/**
 * A catalog's messages found in its text agree with the whole file parsed as JSON, for every key of
 * every catalog, and the lookup is not fooled by what JSON allows inside strings.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogText } from '../../src/i18n/catalog-text';
import { isMessageKey } from '../../src/i18n/translate';

const I18N = resolve(import.meta.dirname, '..', '..', 'i18n');

describe('a catalog read as text', () => {
  for (const language of ['en', 'de', 'he', 'qqq']) {
    it(`finds every message of ${language}.json as JSON.parse reads it`, () => {
      const text = readFileSync(join(I18N, `${language}.json`), 'utf8');
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const catalog = new CatalogText(text);
      const keys = Object.keys(parsed).filter((key) => key !== '@metadata');
      expect(keys.length).toBeGreaterThan(2000);
      expect(keys.filter((key) => catalog.message(key) !== parsed[key])).toEqual([]);
      expect(catalog.keys()).toEqual(keys);
    });
  }

  it('skips quotes, keys and braces inside strings, and the members of @metadata', () => {
    const text = JSON.stringify(
      {
        '@metadata': { locale: 'xx', authors: ['a "b" {'] },
        quoted: 'say \\"late\\": "no" and "early": yes',
        late: 'the \\\\',
        early: 'first',
        'early-more': 'second',
        number: 3,
      },
      null,
      2,
    );
    const catalog = new CatalogText(text);
    expect(catalog.message('quoted')).toBe('say \\"late\\": "no" and "early": yes');
    expect(catalog.message('late')).toBe('the \\\\');
    expect(catalog.message('early')).toBe('first');
    expect(catalog.message('early-more')).toBe('second');
    expect(catalog.message('number')).toBeUndefined();
    expect(catalog.message('locale')).toBeUndefined();
    expect(catalog.message('absent')).toBeUndefined();
  });

  it('says a key of @metadata is no message key, and a real one is', () => {
    expect(isMessageKey('locale')).toBe(false);
    expect(isMessageKey('@metadata')).toBe(false);
    expect(isMessageKey('help-title')).toBe(true);
  });
});
