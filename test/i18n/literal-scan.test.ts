/**
 * No user-facing text outside the catalogs, in the code already swept into them: a ratchet. The
 * paths below are covered (every card renderer; the card, change, secret and OAuth web pages); a path joins
 * the list once its words are all in `i18n/`, and never leaves it. The operator's words (doctor,
 * configuration reference, manifests) stay English, like docs/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { literalsIn, literalsUnder, sourceFiles } from './literal-scan';

const ROOT = join(import.meta.dirname, '..', '..');

/** The swept paths: a user-facing literal in any of them fails the scan. */
const COVERED = [
  'adapters/text.ts',
  'adapters/discord/render.ts',
  'adapters/irc/render.ts',
  'adapters/matrix/render.ts',
  'adapters/shell/render.ts',
  'adapters/slack/render.ts',
  'adapters/telegram/render.ts',
  'src/core/access.ts',
  'src/core/command-failure.ts',
  'src/core/command-runner.ts',
  'src/core/confirm-dialogs.ts',
  'src/core/did-you-mean.ts',
  'src/core/freeze-window.ts',
  'src/core/help-sections.ts',
  'src/core/interrupted.ts',
  'src/core/registry.ts',
  'src/core/stored-input.ts',
  'src/core/word-order.ts',
  'src/web/change-page.ts',
  'src/web/pages/card.ts',
  'src/web/pages/layout.ts',
  'src/web/pages/oauth.ts',
  'src/web/pages/secret.ts',
  'src/web/reader.ts',
  'src/web/secret-page-words.ts',
];

/** Literals of the covered paths that read as words but that nobody reads, and why. */
const NOT_READ: Readonly<Record<string, string>> = {
  'text/plain; charset=utf-8': "an attachment's media type (Discord)",
};

describe('user-facing text outside the catalogs', () => {
  it('scans every covered path', () => {
    const files = COVERED.flatMap((path) => sourceFiles(ROOT, path));
    expect(files).toHaveLength(COVERED.length);
  });

  it('is none in the covered paths', () => {
    const found = literalsUnder(ROOT, COVERED)
      .filter((l) => !(l.text in NOT_READ))
      .map((l) => `${l.file}:${l.line}: ${l.text}`);
    expect(found).toEqual([]);
  });

  it('would catch a new literal in a covered file (a real file with one line added)', () => {
    const file = 'adapters/irc/render.ts';
    const source = readFileSync(join(ROOT, file), 'utf8');
    expect(literalsIn(file, source)).toEqual([]);
    const added = `${source}\nexport const hint = (n: number) => \`\${n} more lines on the card page\`;\n`;
    expect(literalsIn(file, added).map((l) => l.text)).toEqual(['$ more lines on the card page']);
  });

  it('tells text people read from what they do not', () => {
    const texts = (source: string) => literalsIn('x.ts', source).map((l) => l.text);
    // Read: card words, page words, button labels, error messages a person gets.
    expect(texts("notes.push('Full text attached as message.txt.');")).toHaveLength(1);
    expect(texts('const page = `<p>Card not found</p>`;')).toHaveLength(1);
    expect(texts("card.buttons.push({ label: 'Open form' });")).toHaveLength(1);
    expect(texts("throw new UsageError('There is no button here.');")).toHaveLength(1);
    // Not read: catalog keys, names and files, log lines, developers' errors, comparisons, types, imports.
    expect(texts("t(card.locale, 'card-page-title'); const f = 'output.txt'; const k = 'mx:form';")).toEqual(
      [],
    );
    expect(texts("logger.warn({ err }, 'Slack did not say a locale');")).toEqual([]);
    expect(texts("throw new Error('the platform driver did not start');")).toEqual([]);
    expect(texts("if (reason === 'socket close') return;")).toEqual([]);
    expect(texts("type Mode = 'send only';")).toEqual([]);
    expect(texts("import x from 'some module';")).toEqual([]);
    expect(texts('// A comment with many words in it.\n/** And TSDoc too. */')).toEqual([]);
  });
});
