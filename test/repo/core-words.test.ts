/**
 * The core knows no service: what the tool platform is (its name, its resources, its listings and
 * the ids of its API) lives with its feature, in `commands/toolhost/` and `src/services/toolhost/`.
 * Every file under src/core/ is read, comments and texts alike, for the platform's words: its name
 * in any spelling, the phrase people call it by, its kinds of resource as quoted values, and the
 * field names of its API.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const CORE = 'src/core';

/** A word of the tool platform's, and what it is. */
const WORDS: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /tool-?host|toolforge/i, what: "the platform's name" },
  { pattern: /\btool platform\b/i, what: 'what people call the platform' },
  {
    pattern: /['"`](?:builds?|deployments?|jobs?|webservices?)['"`]/,
    what: 'a kind of its resources as a value',
  },
  {
    pattern: /\b(?:build_id|deploy_id|start_time|creation_time|listDeployments)\b/,
    what: 'a field of its API',
  },
];

function coreFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return coreFiles(path);
    return /\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** `file:line: what (text)` for every line of the core that uses a word of the platform. */
function platformWords(): string[] {
  return coreFiles(CORE).flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        WORDS.filter(({ pattern }) => pattern.test(line)).map(
          ({ what }) => `${file}:${index + 1}: ${what} (${line.trim()})`,
        ),
      ),
  );
}

describe('src/core/', () => {
  it('reads files to check', () => {
    expect(coreFiles(CORE).length).toBeGreaterThan(20);
  });

  it('names nothing of the tool platform', () => {
    expect(platformWords()).toEqual([]);
  });

  it('would see a word of the platform in a line', () => {
    const seen = (line: string) => WORDS.some(({ pattern }) => pattern.test(line));
    expect(seen("import type { ToolhostClient } from '../services/toolhost';")).toBe(true);
    expect(seen("  if (group === 'build') return 'builds';")).toBe(true);
    expect(seen('/** The listings of the tool platform. */')).toBe(true);
    expect(seen('  return newest.map((b) => b.build_id);')).toBe(true);
    expect(seen('/** The tool bound to the conversation. */')).toBe(false);
  });
});
