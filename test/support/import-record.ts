/**
 * Recording which packages a Deckhand process imports (through `test/cli/record-imports.mjs`, loaded
 * with `node --import`): the node arguments and environment that turn it on, and the packages read back.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** One recording: pass `nodeArgs` before the script and `env` to the child, then `read()`. */
export interface ImportRecord {
  /** `--import <recorder>`, to put before the script on node's command line. */
  nodeArgs: string[];
  /** Where the recorder writes (`RECORD_IMPORTS`). */
  env: { RECORD_IMPORTS: string };
  /** The packages imported so far, each once. */
  read(): string[];
}

/** A fresh recording in a scratch directory (`dir` when given). */
export function importRecord(dir = mkdtempSync(join(tmpdir(), 'deckhand-imports-'))): ImportRecord {
  const file = join(dir, 'imports.txt');
  writeFileSync(file, '');
  return {
    nodeArgs: ['--import', join(ROOT, 'test', 'cli', 'record-imports.mjs')],
    env: { RECORD_IMPORTS: file },
    read: () => [...new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean))],
  };
}
