/**
 * A platform is one folder and one line: outside `adapters/<platform>/` and the table of platforms
 * (adapters/platforms.ts, and its list of names adapters/platform-names.ts), no source file names a platform. Scanned: src/, commands/, bin/, scripts/
 * and the shared files directly under adapters/ (tests, specs and docs may name platforms). A chat
 * platform's name is found as a word in any letter case (code, comments and texts alike; `SLACK_…`
 * variable names are not words of their own). The terminal's name is an ordinary word, so for it the
 * id is looked for: the quoted name or a quoted `<name>:` id prefix.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORMS, TERMINAL } from '../../adapters/platforms';
import { escapeRegExp } from '../../src/core/command-form';

const ROOT = join(import.meta.dirname, '..', '..');
const SCANNED = ['src', 'commands', 'bin', 'scripts'];
const SOURCE = /\.(ts|mts|mjs|js|cjs)$/;
/** The table of platforms, directly under adapters/. */
const TABLE = ['platforms.ts', 'platform-names.ts'];

/**
 * The terminal's name where it is not the platform: the `deckhand shell` CLI command (its name in the
 * list of commands, and its case in the command switch).
 */
const NOT_THE_PLATFORM: readonly { file: string; line: RegExp }[] = [
  { file: 'src/cli/args.ts', line: /^\s*'shell',$/ },
  { file: 'src/main.ts', line: /^\s*case 'shell':/ },
];

/**
 * Files that still name a platform, waiting to take the words from the descriptors. The list only
 * shrinks: a listed file that no longer names one fails the test too.
 */
const WAITING: readonly string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

function scannedFiles(): string[] {
  const shared = readdirSync(join(ROOT, 'adapters'), { withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !TABLE.includes(entry.name))
    .map((entry) => `adapters/${entry.name}`);
  return [...SCANNED.flatMap(sourceFiles), ...shared];
}

const chatNames = PLATFORMS.filter((p) => p.name !== TERMINAL.name).map((p) => escapeRegExp(p.name));
const CHAT_WORD = new RegExp(`\\b(${chatNames.join('|')})\\b`, 'i');
const TERMINAL_ID = new RegExp(`(['"\`])${escapeRegExp(TERMINAL.name)}(\\1|:)`);

/** `file:line: text` of every line of `file` that names a platform. */
function namings(file: string): string[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  return lines.flatMap((text, index) => {
    const named = CHAT_WORD.test(text) || TERMINAL_ID.test(text);
    const excused = NOT_THE_PLATFORM.some((e) => e.file === file && e.line.test(text));
    return named && !excused ? [`${file}:${index + 1}: ${text.trim()}`] : [];
  });
}

describe('platform names', () => {
  const found = scannedFiles().map((file) => ({ file, lines: namings(file) }));

  it('appear only in adapters/<platform>/ and the table of platforms', () => {
    const outside = found.filter((f) => f.lines.length > 0 && !WAITING.includes(f.file));
    expect(outside.flatMap((f) => f.lines)).toEqual([]);
  });

  it('the list of files waiting for their descriptor words only shrinks', () => {
    const clean = WAITING.filter((file) => found.find((f) => f.file === file)?.lines.length === 0);
    expect(clean).toEqual([]);
  });

  it('the scan sees the table, the files and a naming line', () => {
    expect(chatNames.length).toBeGreaterThanOrEqual(3);
    expect(found.length).toBeGreaterThan(300);
    expect(CHAT_WORD.test(`posted to ${PLATFORMS[0].displayName}`)).toBe(true);
    expect(TERMINAL_ID.test(`const id = '${TERMINAL.name}:ada';`)).toBe(true);
    expect(TERMINAL_ID.test('a shell script')).toBe(false);
  });
});
