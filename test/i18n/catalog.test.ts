/**
 * The message catalogs: every English key documented in qqq.json and used in the code, every
 * translation with the same `$n` parameters as English, and the messages of the flows every reader
 * meets (help, a validation error, a confirmation, the deploy card, an announcement, the secret page)
 * translated in each language.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ALL_COMMANDS } from '../../commands';
import { summaryKey } from '../../src/core/command';
import { argInfo } from '../../src/core/schema-info';
import { isMessageKey, t } from '../../src/i18n/translate';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (name: string) => JSON.parse(readFileSync(join(ROOT, 'i18n', `${name}.json`), 'utf8'));
const en: Record<string, string> = read('en');
const qqq: Record<string, string> = read('qqq');
const TRANSLATIONS = ['de', 'he'] as const;
const keys = Object.keys(en).filter((key) => key !== '@metadata');

/** The prefixes of the keys of the flows a reader meets first: every translation has all of them. */
const FLOW_PREFIXES = [
  'card-',
  'help-',
  'validation-',
  'confirm-',
  'deploy-',
  'announce-',
  'language-',
  'secret-',
];

function codeFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return codeFiles(path);
    return /\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every quoted word of the source that looks like a key (`'deploy-card-title'`). */
function quotedInCode(): Set<string> {
  const text = ['src', 'adapters', 'commands']
    .flatMap(codeFiles)
    .map((f) => readFileSync(join(ROOT, f), 'utf8'));
  const quoted = new Set<string>();
  for (const source of text)
    for (const match of source.matchAll(/['"`]([a-z][a-z0-9-]+)['"`]/g)) quoted.add(match[1] as string);
  return quoted;
}

/** The `$n` parameters of a message, sorted. */
function params(message: string): string[] {
  return [...new Set(message.match(/\$\d+/g) ?? [])].sort();
}

describe('the message catalogs', () => {
  it('read a catalog of some size', () => {
    expect(keys.length).toBeGreaterThan(50);
  });

  it('document every English key in qqq.json, and nothing else', () => {
    expect(keys.filter((key) => !qqq[key]?.trim())).toEqual([]);
    expect(Object.keys(qqq).filter((key) => key !== '@metadata' && !(key in en))).toEqual([]);
  });

  it('hold no key the code never names', () => {
    const quoted = quotedInCode();
    // `help-group-<group>` is read by group name (src/i18n/command-menus.ts) and `cmd-<name>` by the
    // command's name (summaryKey): used while the group or command exists.
    const byName = new Set(
      ALL_COMMANDS.flatMap((command) => [
        `help-group-${command.name.split(' ')[0]}`,
        summaryKey(command.name),
      ]),
    );
    expect(keys.filter((key) => !quoted.has(key) && !byName.has(key))).toEqual([]);
  });

  it("hold every command's summary and every argument's description", () => {
    expect(
      ALL_COMMANDS.map((command) => summaryKey(command.name)).filter((key) => !isMessageKey(key)),
    ).toEqual([]);
    const undescribed = ALL_COMMANDS.flatMap((command) =>
      Object.entries((command.args as z.ZodObject).shape as Record<string, z.ZodType>)
        .filter(([, schema]) => !argInfo(schema).hidden && !argInfo(schema).descriptionKey)
        .map(([name]) => `/${command.name} ${name}`),
    );
    expect(undescribed).toEqual([]);
  });

  it.each(TRANSLATIONS)('%s: translates every summary and argument description', (language) => {
    const catalog: Record<string, string> = read(language);
    const declared = keys.filter((key) => key.startsWith('cmd-') || key.startsWith('opt-'));
    expect(declared.length).toBeGreaterThan(300);
    expect(declared.filter((key) => !catalog[key]?.trim())).toEqual([]);
  });

  it('would see an unused key (positive control)', () => {
    expect(quotedInCode().has('no-such-message-key-anywhere')).toBe(false);
    expect(quotedInCode().has('deploy-card-title')).toBe(true);
  });

  it.each(TRANSLATIONS)('%s: has only English keys, with the same $n parameters', (language) => {
    const catalog: Record<string, string> = read(language);
    const own = Object.keys(catalog).filter((key) => key !== '@metadata');
    expect(own.filter((key) => !(key in en))).toEqual([]);
    const mismatched = own.filter(
      (key) => params(catalog[key] as string).join() !== params(en[key] as string).join(),
    );
    expect(mismatched).toEqual([]);
  });

  it.each(TRANSLATIONS)('%s: translates every message of the flows', (language) => {
    const catalog: Record<string, string> = read(language);
    const flow = keys.filter((key) => FLOW_PREFIXES.some((prefix) => key.startsWith(prefix)));
    expect(flow.length).toBeGreaterThan(80);
    expect(flow.filter((key) => !catalog[key]?.trim())).toEqual([]);
  });

  it.each(['en', ...TRANSLATIONS])('%s: renders every message (the format parses it)', (language) => {
    const broken = keys.filter((key) => {
      try {
        return !isMessageKey(key) || t(language, key, 'x', 2, 'y', 3) === '';
      } catch {
        return true;
      }
    });
    expect(broken).toEqual([]);
  });

  it('would see a translation with other parameters (positive control)', () => {
    expect(params('Deploy $1 to $2')).not.toEqual(params('$1 deployen'));
  });
});
