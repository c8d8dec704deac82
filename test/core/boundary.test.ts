import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const FORBIDDEN =
  /from\s+['"](@slack\/[\w-]+|discord\.js|@discordjs\/[\w-]+|grammy|@grammyjs\/[\w-]+|bullmq)['"]/;
const ADAPTER_IMPORT = /from\s+['"](\.\.\/)+adapters\//;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('layer boundaries', () => {
  for (const layer of ['src/core', 'commands']) {
    it(`${layer}/ imports no platform SDK, no BullMQ and no adapter`, () => {
      const files = sourceFiles(join(root, layer));
      expect(files.length).toBeGreaterThan(0);
      const offenders = files
        .filter((file) => {
          const text = readFileSync(file, 'utf8');
          return FORBIDDEN.test(text) || ADAPTER_IMPORT.test(text);
        })
        .map((file) => relative(root, file));
      expect(offenders).toEqual([]);
    });
  }

  it('detects a forbidden import (the check itself works)', () => {
    expect(FORBIDDEN.test(`import { App } from '@slack/bolt';`)).toBe(true);
    expect(FORBIDDEN.test(`import { Queue } from 'bullmq';`)).toBe(true);
    expect(FORBIDDEN.test(`import { z } from 'zod';`)).toBe(false);
  });
});
