/**
 * Every message the suite's scenarios produce, scanned for words no user should read (see
 * `test/support/message-scan.ts`). The scenarios are the command lines the test files type (every
 * `'/deploy …'`-like string literal in `test/**\/*.test.ts`) plus bad inputs of every kind, run
 * through the real runner on the sandbox; their replies and every card update are scanned.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import { commandRegistry } from '../../src/wiring';
import { settled, startTestApp, type TestApp } from '../support/app';
import { cardWords, ISO_TIME, SCAN_RULES, type ScanRule, scan } from '../support/message-scan';

const TEST_ROOT = join(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fakes' ? [] : testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The command lines the test files type, each once. */
function scenarioLines(): string[] {
  const groups = commandRegistry()
    .groups()
    .map((g) => g.replace(/[-]/g, '\\-'));
  const literal = new RegExp(`(['"\`])(/(?:${groups.join('|')})(?:\\s[^'"\`$\\n]*)?)\\1`, 'g');
  const lines = new Set<string>();
  for (const file of testFiles(TEST_ROOT)) {
    for (const match of readFileSync(file, 'utf8').matchAll(literal)) {
      const line = (match[2] as string).trim();
      // A live log tail runs for minutes by design; its messages are tested in test/queue/tail.test.ts.
      if (!line.includes('--follow')) lines.add(line);
    }
  }
  return [...lines].sort();
}

/** Bad inputs of every kind: typos, values the validators or the services refuse. */
const BAD_INPUTS = [
  '/deplyo mytool',
  '/jobs lsit mytool',
  '/deploy mytool --force-biuld',
  '/media folder',
  '/build list mytool --limit 0',
  '/build list mytool --limit 2.5',
  '/logs mytool web --since yesterday-ish',
  '/logs mytool web --lines -1',
  '/event create "" --start tomorrow',
  '/jobs run mytool x --command c --image python3.11 --emails nne',
  '/jobs run mytool x --command c --image python3.11 --replicas 2',
  '/jobs run mytool x --command c --image python3.11 --mount none',
  '/envvars set mytool lower value',
  '/unlink sorce',
  '/media stats --days 0',
  '/token show mytool',
  '/logs mytool web --since 2026-13-45',
  '/jobs run mytool x --command c --image nosuchimage',
  '/jobs run mytool web --command c --image python3.11',
  '/jobs run mytool x --command c --image python3.11 --schedule "99 * * * *"',
  '/event create "x" --start 2026-02-30',
  '/deployment show mytool nope',
  '/token create mytool',
];

const PRIVATE = /^\/(token|link|envvars (show|set))\b/;

let t: TestApp;
const seen: { line: string; card: Card }[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const byTs = new Map<string, string>();
  for (const line of [...scenarioLines(), ...BAD_INPUTS]) {
    const before = t.transcript.posted.length;
    const cards = await t.say(line, { private: PRIVATE.test(line) });
    for (const card of cards) seen.push({ line, card });
    for (let i = before; i < t.transcript.posted.length; i++) byTs.set(String(i + 1), line);
  }
  await settled(t.app, 120_000);
  for (const { handle, card } of t.transcript.updates) {
    seen.push({ line: `${byTs.get(handle.ref.ts ?? '') ?? '(a card update)'} (update)`, card });
  }
}, 600_000);
afterAll(async () => {
  await t?.close();
});

function offenders(rules: readonly ScanRule[]): string[] {
  const out = new Set<string>();
  for (const { line, card } of seen) {
    for (const problem of scan(cardWords(card), rules))
      out.add(`${problem.rule} — ${line}: …${problem.excerpt}…`);
  }
  return [...out];
}

describe('every message of the suite’s scenarios', () => {
  it('ran enough scenarios to mean something', () => {
    expect(scenarioLines().length).toBeGreaterThan(200);
    expect(seen.length).toBeGreaterThan(300);
  });

  it('has no validator phrases, HTTP paths, other tools’ CLI commands or wrong plurals', () => {
    expect(offenders(SCAN_RULES)).toEqual([]);
  });

  it('has no raw ISO timestamps', () => {
    expect(offenders([ISO_TIME])).toEqual([]);
  });
});
