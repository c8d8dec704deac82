import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
// @ts-expect-error -- a plain .mjs module without types
import { chooseSource } from '../../bin/source-choice.mjs';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Builds dist/ when it is missing or older than a source file, so a test that runs the compiled CLI
 * (DECKHAND_RUN=dist) runs the code under test. The build swaps dist/ in whole (bin/build.mjs).
 */
export function ensureBuilt(): void {
  const choice = (chooseSource as (root: string, forced?: string) => { kind: string })(ROOT, undefined);
  if (choice.kind === 'dist') return;
  execFileSync(process.execPath, [join(ROOT, 'bin', 'build.mjs')], { cwd: ROOT, stdio: 'ignore' });
}
