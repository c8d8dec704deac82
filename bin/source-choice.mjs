// Which code `bin/deckhand.mjs` runs: the compiled dist/ when it is there and newer than every source
// file, else the TypeScript sources through tsx (development: an edit takes effect without a build).
// DECKHAND_RUN=dist or DECKHAND_RUN=src forces one (the benchmark compares both).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The workspace packages' sources are bundled into dist/ too (bin/build.mjs).
const SOURCE_DIRS = ['src', 'adapters', 'commands', 'packages/sandbox/src'];

/** Newest modification time (ms) of a `.ts` file under `dir`, or 0 where there is none. */
function newestSource(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const mtime = statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

/**
 * `{ kind: 'dist' | 'src', why }` for the project at `root`; `forced` is DECKHAND_RUN's value.
 * Throws an Error with one clear line when the forced choice cannot be run.
 */
export function chooseSource(root, forced) {
  const stamp = join(root, 'dist', 'BUILD');
  if (forced === 'dist') {
    if (!existsSync(stamp)) throw new Error('DECKHAND_RUN=dist but dist/ is not built: run `npm run build`.');
    return { kind: 'dist', why: 'DECKHAND_RUN=dist' };
  }
  if (forced === 'src') return { kind: 'src', why: 'DECKHAND_RUN=src' };
  if (forced) throw new Error(`DECKHAND_RUN must be dist or src, got "${forced}".`);
  if (!existsSync(stamp)) return { kind: 'src', why: 'dist/ is not built' };
  const built = statSync(stamp).mtimeMs;
  const newest = Math.max(...SOURCE_DIRS.map((dir) => newestSource(join(root, dir))));
  if (newest > built) return { kind: 'src', why: 'a source file is newer than dist/' };
  return { kind: 'dist', why: 'dist/ is up to date' };
}
