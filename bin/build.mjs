#!/usr/bin/env node
// `npm run build` (and `prepare`, which `npm ci` runs): bundles src/main.ts into dist/ with esbuild —
// one ES module per lazily imported command path (code splitting), dependencies left to node_modules
// except this repository's own workspace packages (packages/*, TypeScript sources), which are bundled.
// Where esbuild is absent (a production install with --omit=dev) and dist/ already exists, it says so
// and keeps dist/; without either it stops with one clear line.
import './check-node.mjs';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Imports of this repository's workspace packages (packages/*): bundled, since they ship as TypeScript. */
const WORKSPACE_PACKAGE = /^@deckhand\//;

/** Leaves every other package import to node_modules (esbuild's `packages: 'external'`, with that exception). */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      WORKSPACE_PACKAGE.test(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};
const DIST = join(ROOT, 'dist');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  if (existsSync(join(DIST, 'main.js'))) {
    process.stderr.write('deckhand build: esbuild is not installed (production install); keeping dist/.\n');
    process.exit(0);
  }
  process.stderr.write(
    'deckhand build: esbuild is not installed and dist/ is missing: run `npm ci` (with dev dependencies), then `npm run build`.\n',
  );
  process.exit(1);
}

// Built beside dist/ and swapped in, so a Deckhand starting meanwhile never sees half a build.
const next = `${DIST}.next-${process.pid}`;
const old = `${DIST}.old-${process.pid}`;
const started = Date.now();
await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: { main: 'src/main.ts' },
  outdir: next,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externalPackages],
  tsconfig: 'tsconfig.build.json',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
// Marks the build finished (bin/deckhand.mjs compares its time with the sources').
writeFileSync(join(next, 'BUILD'), `${new Date().toISOString()}\n`);
if (existsSync(DIST)) renameSync(DIST, old);
renameSync(next, DIST);
rmSync(old, { recursive: true, force: true });
process.stderr.write(`deckhand build: dist/ written in ${Date.now() - started} ms.\n`);
