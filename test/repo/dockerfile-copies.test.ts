/**
 * The Docker image's build stage copies every top-level folder the bundled code imports from: a
 * folder left out (the message catalogs in `i18n/`, say) breaks `docker build` while every test passes.
 * The image itself carries the catalogs: the program reads them at run time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BUNDLED = ['src', 'adapters', 'commands', 'packages/sandbox/src'];

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFiles(path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The top-level folders that relative imports of the bundled code reach. */
function importedFolders(): Set<string> {
  const folders = new Set<string>();
  for (const file of BUNDLED.flatMap((dir) => codeFiles(join(ROOT, dir)))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = relative(ROOT, resolve(dirname(file), match[1] as string));
      if (!target.startsWith('..')) folders.add(target.split('/')[0] as string);
    }
  }
  return folders;
}

/** The folders a stage of the Dockerfile copies (`COPY <folder> ./<folder>`): 1 build, 2 final. */
function copiedFolders(stage = 1): Set<string> {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const text = dockerfile.split(/^FROM /m)[stage] ?? '';
  return new Set([...text.matchAll(/^COPY ([\w-]+) \.\/\1$/gm)].map((m) => m[1] as string));
}

describe('the Docker build stage', () => {
  it('copies every top-level folder the bundled code imports', () => {
    const imported = importedFolders();
    expect(imported.has('i18n')).toBe(true);
    expect([...imported].filter((folder) => !copiedFolders().has(folder))).toEqual([]);
  });

  it('ships the message catalogs the program reads at run time', () => {
    const reader = readFileSync(join(ROOT, 'src', 'i18n', 'catalog-text.ts'), 'utf8');
    expect(reader).toContain("join(dir, 'i18n')");
    expect(copiedFolders(2).has('i18n')).toBe(true);
  });
});
