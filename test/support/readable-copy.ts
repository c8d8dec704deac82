/**
 * A checkout another user can run: tests that start Deckhand as an unprivileged user (uid 65534)
 * need to read its files, which a clone in a private home (root's `/root/x`, mode 700) does not
 * allow. {@link checkoutFor} answers with the checkout itself when that user can read it, else with
 * a copy under the system's temporary directory that it can read, or — only when that user cannot
 * run this Node at all — the reason a test cannot run as them.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** Top-level entries a run of Deckhand never reads. */
const NOT_NEEDED = new Set(['.git', '.data', 'test', 'bench', 'docs', 'specs', 'coverage']);

/** A checkout `uid` can run, and how to remove it when it is a copy. */
export type Checkout = { root: string; dispose(): void } | { cannot: string };

/** Whether `uid`/`gid` can run this Node and read every path in `paths` (and the directories above). */
function canRead(uid: number, gid: number, paths: string[]): boolean {
  const probe = `const fs = require('node:fs'); for (const p of ${JSON.stringify(paths)}) fs.accessSync(p, fs.constants.R_OK);`;
  const run = spawnSync(process.execPath, ['-e', probe], { uid, gid, cwd: '/', stdio: 'ignore' });
  return run.status === 0;
}

/** The files Deckhand's start needs first: if these are readable, the rest of the checkout is too. */
function entryFiles(root: string): string[] {
  return [
    join(root, 'bin', 'deckhand.mjs'),
    join(root, 'package.json'),
    join(root, 'src', 'main.ts'),
    join(root, 'node_modules', 'tsx', 'package.json'),
  ];
}

/**
 * Opens every directory under `root` to everyone, and replaces each file others may not read (a
 * clone made under `umask 077`) by a readable copy: a hard-linked file is never chmod-ed, as that
 * would change the original's mode too.
 */
function readableByAll(root: string): void {
  spawnSync('find', [root, '-type', 'd', '-exec', 'chmod', 'a+rx', '{}', '+'], { stdio: 'ignore' });
  const closed = spawnSync('find', [root, '-type', 'f', '!', '-perm', '-o=r', '-print0'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  for (const file of (closed.stdout ?? '').split('\0').filter(Boolean)) {
    const copy = `${file}.readable`;
    copyFileSync(file, copy);
    renameSync(copy, file);
    chmodSync(file, 0o644 | (statSync(file).mode & 0o111 ? 0o111 : 0));
  }
}

/** This checkout, or a copy of it, that `uid`/`gid` can read and run (see the module comment). */
export function checkoutFor(uid: number, gid: number): Checkout {
  if (!canRead(uid, gid, [])) {
    return { cannot: `uid ${uid} cannot run ${process.execPath} (it lies in a directory it cannot enter)` };
  }
  if (canRead(uid, gid, entryFiles(ROOT))) return { root: ROOT, dispose: () => undefined };
  const base = mkdtempSync(join(tmpdir(), 'deckhand-readable-'));
  chmodSync(base, 0o755);
  const root = join(base, basename(ROOT));
  mkdirSync(root);
  const entries = readdirSync(ROOT).filter((entry) => !NOT_NEEDED.has(entry));
  // Dereferenced: node_modules may be a link into a place that user cannot read either. Hard links
  // where the files are on one filesystem (fast, no space), else copies with their times kept
  // (bin/source-choice.mjs compares them).
  const cp = (...flags: string[]) =>
    spawnSync('cp', ['-RL', ...flags, ...entries, root], { cwd: ROOT, stdio: 'ignore' }).status === 0;
  if (!cp('--link')) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root);
    if (!cp('--preserve=timestamps')) {
      for (const entry of entries) {
        cpSync(join(ROOT, entry), join(root, entry), {
          recursive: true,
          dereference: true,
          preserveTimestamps: true,
        });
      }
    }
  }
  readableByAll(root);
  const dispose = () => rmSync(base, { recursive: true, force: true });
  if (!existsSync(join(root, 'bin', 'deckhand.mjs')) || !canRead(uid, gid, entryFiles(root))) {
    dispose();
    return { cannot: `uid ${uid} cannot read a copy of the checkout under ${tmpdir()} either` };
  }
  return { root, dispose };
}
