/**
 * No user-facing text outside the catalogs: every literal a chat reader could meet in the product's
 * code is a catalog message (`scan-scope.ts` says what is read, and which operator paths, records and
 * machine texts stay English, each with its reason).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Literal, literalsIn, literalsUnder, sourceFiles } from './literal-scan';
import { operatorPath, readByPeople, SCANNED } from './scan-scope';

const ROOT = join(import.meta.dirname, '..', '..');

function found(): Literal[] {
  return literalsUnder(ROOT, SCANNED).filter(readByPeople);
}

describe('user-facing text outside the catalogs', () => {
  it('is none in the product', () => {
    expect(found().map((l) => `${l.file}:${l.line}: ${l.text}`)).toEqual([]);
  });

  it('reads the whole product (positive control: a count of files, each read)', () => {
    const files = SCANNED.flatMap((dir) => sourceFiles(ROOT, dir));
    expect(files.length).toBeGreaterThan(500);
    expect(files.filter((file) => !operatorPath(file)).length).toBeGreaterThan(450);
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
    expect(texts('const label = `Build ${id} of ${tool}`;')).toHaveLength(1);
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
    // Not read either: command lines, Lua, date patterns, HTTP headers, settings' names, metrics help.
    expect(texts("hint('/jobs load $ --from-repo --path deploy/jobs.yaml --ref main');")).toEqual([]);
    expect(texts("const LUA = `local held = redis.call('get', KEYS[1])\nreturn held`;")).toEqual([]);
    expect(texts("const DAY = 'ccc d LLL yyyy, HH:mm';")).toEqual([]);
    expect(texts("reply.header('set-cookie', 'dh=x; Path=/; HttpOnly; SameSite=Lax');")).toEqual([]);
    expect(texts("const setup = { variables: 'SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET' };")).toEqual([]);
    expect(texts("new Counter({ name: 'x', help: 'Jobs in each queue, by state.' });")).toEqual([]);
    expect(texts("getProcessLogger().debug({ job }, 'queue job run');")).toEqual([]);
    // …but a sentence that starts with a command is read.
    expect(texts("say('/config set mytool saves the new configuration.');")).toHaveLength(1);
  });
});
