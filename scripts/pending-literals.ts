/** Writes `test/i18n/pending-literals.ts` from the literal scan: `npx tsx scripts/pending-literals.ts`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { literalsUnder } from '../test/i18n/literal-scan';
import { readByPeople, SCANNED } from '../test/i18n/scan-scope';

const found = literalsUnder(process.cwd(), SCANNED).filter(readByPeople);
const by = new Map<string, number>();
for (const l of found) by.set(l.file, (by.get(l.file) ?? 0) + 1);
const path = 'test/i18n/pending-literals.ts';
const head = readFileSync(path, 'utf8').split('export const PENDING')[0];
const lines = [...by].sort((a, b) => a[0].localeCompare(b[0])).map(([f, n]) => `  '${f}': ${n},`);
writeFileSync(
  path,
  `${head}export const PENDING: Readonly<Record<string, number>> = {\n${lines.join('\n')}\n};\n`,
);
console.log(found.length, 'literals in', by.size, 'files');
