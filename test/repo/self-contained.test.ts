/**
 * The repository holds everything its tests and its start need: no file reads from the project
 * workspace folder beside the clone. A fresh clone with nothing next to it must pass. (The refresh
 * script takes its source folder as an argument, so it names none.) The folder's name is assembled
 * here, so that this test does not itself contain the reference it looks for.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const CODE = /\.(ts|mts|mjs|js|cjs|json|sh|yaml|yml)$|^Dockerfile|Procfile$/;

const SKIP_DIRS = new Set(['node_modules', '.git', '.data', 'dist', 'specs']);

/** Every file of the tree (walked, so it works without git too), relative to the root. */
function repoFiles(dir = repo): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) files.push(...repoFiles(resolve(dir, entry.name)));
    } else if (entry.isFile() && !entry.name.startsWith('.vitest')) {
      files.push(relative(repo, resolve(dir, entry.name)));
    }
  }
  return files;
}

const WORKSPACE = ['sha', 'red'].join('');
/** `../<workspace>`, `..\\<workspace>` or `'..', '<workspace>'` (a path.join of the two). */
const OUTSIDE = new RegExp(`\\.\\.[/\\\\]${WORKSPACE}\\b|'\\.\\.', '${WORKSPACE}'`);

/** Lines of `text` that name a path above the repository's root into the workspace. */
function outsideReferences(text: string): string[] {
  return text.split('\n').filter((line) => OUTSIDE.test(line));
}

describe('self-contained repository', () => {
  it('no code, script or config file reads the workspace folder beside the clone', () => {
    const offenders: string[] = [];
    for (const file of repoFiles()) {
      if (!CODE.test(file)) continue;
      for (const line of outsideReferences(readFileSync(resolve(repo, file), 'utf8'))) {
        offenders.push(`${file}: ${line.trim()}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the check sees a reference when there is one (positive control)', () => {
    expect(outsideReferences(`const dir = resolve(here, '../../../${WORKSPACE}/specs');`)).toHaveLength(1);
    expect(outsideReferences(`const dir = join(here, '..', '${WORKSPACE}', 'specs');`)).toHaveLength(1);
    expect(outsideReferences('const dir = resolve(here, "specs");')).toHaveLength(0);
  });

  it('the API descriptions the tests validate against are in the repository', () => {
    for (const file of [
      'specs/toolforge/builds-openapi.yaml',
      'specs/toolforge/jobs-openapi.yaml',
      'specs/toolforge/components-openapi.yaml',
      'specs/platforms/discord-openapi.json',
      'specs/platforms/slack-web-openapi.json',
      'specs/platforms/telegram-bot-api-openapi.json',
      'specs/sourcehost/github-subset-openapi.json',
    ]) {
      expect(existsSync(resolve(repo, file)), file).toBe(true);
    }
  });
});
