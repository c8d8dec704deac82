import { escapeMarkdown } from 'discord.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeText, escapeWithin } from '../../adapters/discord/escape';
import { LIMITS, renderCard } from '../../adapters/discord/render';

const DISCORD_JS_OPTIONS = { heading: true, bulletedList: true, numberedList: true, maskedLink: true };
const ZWSP = '\u200b';

/**
 * Inputs of discord.js's own escaper tests: discordjs/discord.js,
 * packages/formatters/__tests__/escapers.test.ts (commit 1c5701651ab344c81d69ca0efa31bd9df6e51f2e):
 * `testString`, `testStringForums`, `testURLs`, the emoji, after-url and basic cases.
 */
const DISCORD_JS_INPUTS = [
  "`_Behold!_`\n||___~~***```js\n`use strict`;\nrequire('discord.js');```***~~___||",
  '# Title\n## Subtitle\n### Subsubtitle\n- Bullet list\n - # Title with bullet\n * Subbullet\n1. Number list\n 1. Sub number list',
  'https://example.com/name_wow',
  'https://example.com/name__wow',
  'https://example.com/name_with_underscores',
  'https://example.com/name__with__underscores',
  'https://example.com/name_with_underscores_and__double__underscores',
  'https://*.example.com/globbed/*',
  'https://example.com/*before*/>/*after*',
  'This is a test with _emojis_ <:Frost_ed_Wreath:1053399941210443826> and **bold text**.',
  'This is a test with __emojis__ <:Frost__ed__Wreath:1053399939654352978> and **bold text**.',
  '<https://example.com>*hi*',
  '<https://example.com>_hi_',
  '```test```',
  '`test`',
  '**test**',
  '_test_',
  '*test*',
  '__test__',
  '~~test~~',
  '||test||',
  '# test',
  '- test',
  '1. test',
  '[test](https://discord.js.org)',
  '**foo** ```**bar**``` **fizz** ``` **buzz**',
  '**foo** `**bar**` **fizz** ` **buzz**',
];

/**
 * Which characters of `input` an escaper's `output` escaped: `output` is `input` with a backslash
 * put before some characters (and a zero-width space after some `@`/`<`).
 */
function escapedPositions(input: string, output: string): Set<number> {
  const escaped = new Set<number>();
  let j = 0;
  for (let i = 0; i < input.length; i++) {
    if (output[j] === '\\' && (input[i] !== '\\' || output[j + 1] === '\\') && output[j + 1] === input[i]) {
      escaped.add(i);
      j += 2;
    } else {
      expect(output[j], `output ${JSON.stringify(output)} at ${j}`).toBe(input[i]);
      j += 1;
    }
    if (output[j] === ZWSP && (input[i] === '@' || input[i] === '<') && input[i + 1] !== ZWSP) j += 1;
  }
  expect(j).toBe(output.length);
  return escaped;
}

/** What Discord shows for escaped text: a backslash before punctuation disappears, and our ZWSPs. */
function shown(output: string): string {
  return output.replace(/\\([^0-9A-Za-z\s])/g, '$1').replace(/([@<])\u200b/g, '$1');
}

/** Positions of `char` in `output` that are not escaped by a backslash. */
function live(output: string, char: string): number[] {
  const found: number[] = [];
  for (let i = 0; i < output.length; i++) {
    if (output[i] === '\\') {
      i++;
      continue;
    }
    if (output[i] === char) found.push(i);
  }
  return found;
}

describe('Discord escaping (one pass, instead of discord.js escapeMarkdown)', () => {
  it('escapes every character discord.js escapeMarkdown escapes, on discord.js’s own test inputs', () => {
    for (const input of DISCORD_JS_INPUTS) {
      const theirs = escapedPositions(input, escapeMarkdown(input, DISCORD_JS_OPTIONS));
      const ours = escapedPositions(input, escapeText(input));
      // Positive control: discord.js escaped something in every input but the bare URLs.
      if (!input.startsWith('https://')) expect(theirs.size, input).toBeGreaterThan(0);
      for (const position of theirs) expect(ours.has(position), `${input} @${position}`).toBe(true);
      expect(shown(escapeText(input))).toBe(input);
    }
  });

  it('leaves URLs with underscores as they are, like discord.js, so they still link', () => {
    for (const url of DISCORD_JS_INPUTS.filter((s) => s.startsWith('https://example.com/name'))) {
      expect(escapeText(url)).toBe(url);
      expect(escapeText(`see ${url} _x_`)).toBe(`see ${url} \\_x\\_`);
    }
  });

  it('makes every masked link of a line inert: two, N, nested, odd brackets, <url>, after a URL', () => {
    const inputs = [
      'Bring snacks: [menu](https://ok.example) and [Confirm your seat](https://evil.example/login)',
      Array.from({ length: 50 }, (_, i) => `[l${i}](https://evil.example/${i})`).join(' '),
      '[a](https://x)'.repeat(30),
      '[[nested](https://a.example)](https://b.example)',
      '[odd]] [[brackets](https://evil.example) ]][x](https://evil.example)',
      '[x](<https://evil.example/login>) and [y](<https://evil.example/2>)',
      'https://ok.example/path_[Confirm](https://evil.example) tail',
      '- [list item](https://evil.example)\n> [quoted](https://evil.example)\n# [heading](https://e.example)',
    ];
    for (const input of inputs) {
      const out = escapeText(input);
      // Positive control: the input has masked links to break.
      expect(input).toMatch(/\[[^\]]*\]\(/);
      expect(live(out, '['), out).toEqual([]);
      expect(live(out, ']'), out).toEqual([]);
      expect(shown(out)).toBe(input);
    }
    const event = renderCard({
      title: 'Picnic',
      text: 'Bring snacks: [menu](https://ok.example) and [Confirm your seat](https://evil.example/login)',
    });
    const description = event.body.embeds[0]?.description ?? '';
    expect(description).toBe(
      'Bring snacks: \\[menu\\](https://ok.example) and \\[Confirm your seat\\](https://evil.example/login)',
    );
  });

  it('shows exactly the text, with no live link bracket, for any string', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            '[',
            ']',
            '(',
            ')',
            '<',
            '>',
            'h',
            't',
            'p',
            's',
            ':',
            '/',
            '_',
            '*',
            '\\',
            '@',
            ' ',
            '\n',
            'x',
            '1',
            '.',
            '#',
            '-',
          ),
          maxLength: 80,
        }),
        (input) => {
          const out = escapeText(input);
          expect(live(out, '[')).toEqual([]);
          expect(shown(out)).toBe(input);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('cuts between escapes: never a dangling backslash, half a mention break or half a surrogate pair', () => {
    for (let max = 1; max < 40; max++) {
      for (const input of ['a*b_c\\d`e', '@everyone <@1> x', '😀*😀*😀*😀', '[a](https://x)[b](https://y)']) {
        const { text, cut } = escapeWithin(input.repeat(4), max);
        expect(text.length).toBeLessThanOrEqual(max);
        expect(cut).toBe(true);
        const body = text.slice(0, -1);
        expect(text.endsWith('…')).toBe(true);
        expect(escapeText(input.repeat(4)).startsWith(body)).toBe(true);
        expect(body).not.toMatch(/(^|[^\\])(\\\\)*\\$/);
        expect(body).not.toMatch(/<$|(^|[^\u200b])@$/);
        expect(body).not.toMatch(/[\ud800-\udbff]$/);
      }
    }
  });

  it('renders a card with a 100,000-character word within every limit, escaped, and attaches it whole', () => {
    const word = `${'a_b*c'.repeat(20_000)}`;
    const { body, files } = renderCard({
      title: word,
      text: word,
      fields: [{ label: word, value: word }],
      footer: word,
    });
    const embed = body.embeds[0];
    expect(embed?.title?.length).toBeLessThanOrEqual(LIMITS.title);
    expect(embed?.description?.length).toBeLessThanOrEqual(LIMITS.description);
    expect(embed?.fields?.[0]?.name.length).toBeLessThanOrEqual(LIMITS.fieldName);
    expect(embed?.fields?.[0]?.value.length).toBeLessThanOrEqual(LIMITS.fieldValue);
    expect(embed?.footer?.text.length).toBeLessThanOrEqual(LIMITS.footer);
    const escapedWord = escapeText(word);
    for (const shownText of [embed?.title, embed?.description, embed?.fields?.[0]?.value]) {
      expect(shownText?.endsWith('…')).toBe(true);
      expect(escapedWord.startsWith(shownText?.slice(0, -1) ?? 'x')).toBe(true);
      expect(shownText).toContain('a\\_b\\*c');
      expect(live(shownText ?? '', '*')).toEqual([]);
    }
    expect(String(files.find((f) => f.name === 'message.txt')?.data)).toContain(word);
  });

  it('renders a 100,000-character line of links and markdown within the limit, every link inert', () => {
    const line = '[a](https://x)*_`~|#@here<@1>'.repeat(3500).slice(0, 100_000);
    const description = renderCard({ text: line }).body.embeds[0]?.description ?? '';
    expect(description.length).toBeLessThanOrEqual(LIMITS.description);
    expect(description.length).toBeGreaterThan(LIMITS.description - 200);
    for (const char of ['[', ']', '*', '`', '~', '|']) expect(live(description, char)).toEqual([]);
    expect(description).not.toMatch(/@here|<@/);
  });

  it('drops bidi embeddings, overrides and isolates', () => {
    expect(escapeText('invoice\u202egpj.exe done')).toBe('invoicegpj.exe done');
    expect(escapeText('a\u2066b\u2069c\u202a\u202d')).toBe('abc');
  });
});
