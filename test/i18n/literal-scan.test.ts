/**
 * No user-facing text outside the catalogs: every literal a chat reader could meet in the product's
 * code (`scan-scope.ts` says what is read and which operator paths stay English) is a catalog message,
 * except in the files of `pending-literals.ts`, which may keep as many as they have and no more.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Literal, literalsIn, literalsUnder } from './literal-scan';
import { PENDING } from './pending-literals';
import { operatorPath, readByPeople, SCANNED } from './scan-scope';

const ROOT = join(import.meta.dirname, '..', '..');

function found(): Literal[] {
  return literalsUnder(ROOT, SCANNED).filter(readByPeople);
}

describe('user-facing text outside the catalogs', () => {
  it('is none outside the pending files, and no more than each pending file holds', () => {
    const byFile = new Map<string, Literal[]>();
    for (const l of found()) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l]);
    const over = [...byFile]
      .filter(([file, literals]) => literals.length > (PENDING[file] ?? 0))
      .flatMap(([, literals]) => literals.map((l) => `${l.file}:${l.line}: ${l.text}`));
    expect(over).toEqual([]);
    // A file swept further lowers its count, so the ratchet holds what it gained.
    const stale = Object.entries(PENDING)
      .filter(([file, count]) => (byFile.get(file)?.length ?? 0) < count)
      .map(([file, count]) => `${file}: ${count} pending, ${byFile.get(file)?.length ?? 0} found`);
    expect(stale).toEqual([]);
  });

  it("reads the operator paths as the operator's: English by design", () => {
    expect(operatorPath('adapters/irc/doctor.ts')).toBe(true);
    expect(operatorPath('src/cli/doctor/redis-checks.ts')).toBe(true);
    expect(operatorPath('adapters/irc/render.ts')).toBe(false);
    expect(operatorPath('src/core/help.ts')).toBe(false);
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
