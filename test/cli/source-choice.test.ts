/**
 * Which code bin/deckhand.mjs runs: dist/ when built and newer than every source file, else the
 * sources through tsx; DECKHAND_RUN forces one, and a forced dist/ that is not built is one clear error.
 */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs module without types
import { chooseSource as choose } from '../../bin/source-choice.mjs';

const chooseSource = choose as (root: string, forced?: string) => { kind: 'dist' | 'src'; why: string };

/** A project with one source file and optionally a build, with the given modification times (s). */
function project(times: { source: number; build?: number }): string {
  const root = mkdtempSync(join(tmpdir(), 'deckhand-choice-'));
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  const source = join(root, 'src', 'cli', 'start.ts');
  writeFileSync(source, 'export {};\n');
  utimesSync(source, times.source, times.source);
  if (times.build !== undefined) {
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'BUILD'), 'now\n');
    utimesSync(join(root, 'dist', 'BUILD'), times.build, times.build);
  }
  return root;
}

describe('bin/deckhand.mjs source choice', () => {
  it('runs dist/ when it is newer than every source file', () => {
    expect(chooseSource(project({ source: 1000, build: 2000 }))).toEqual({
      kind: 'dist',
      why: 'dist/ is up to date',
    });
  });

  it('runs the sources when a source file changed after the build (a nested file counts)', () => {
    expect(chooseSource(project({ source: 3000, build: 2000 }))).toEqual({
      kind: 'src',
      why: 'a source file is newer than dist/',
    });
  });

  it('runs the sources when dist/ is not built', () => {
    expect(chooseSource(project({ source: 1000 }))).toEqual({ kind: 'src', why: 'dist/ is not built' });
  });

  it('DECKHAND_RUN forces one; a forced dist/ that is missing, or a bad value, is one clear error', () => {
    expect(chooseSource(project({ source: 3000, build: 2000 }), 'dist').kind).toBe('dist');
    expect(chooseSource(project({ source: 1000, build: 2000 }), 'src').kind).toBe('src');
    expect(() => chooseSource(project({ source: 1000 }), 'dist')).toThrow(
      'DECKHAND_RUN=dist but dist/ is not built: run `npm run build`.',
    );
    expect(() => chooseSource(project({ source: 1000 }), 'js')).toThrow(
      'DECKHAND_RUN must be dist or src, got "js".',
    );
  });
});
