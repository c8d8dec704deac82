#!/usr/bin/env node
// Runs a TypeScript file through tsx (like bin/deckhand.mjs does for src/main.ts): `node bin/run-ts.mjs bench/run.ts [args]`.
import './check-node.mjs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bin/run-ts.mjs <file.ts> [args...]\n');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(file), ...rest];
register();
await import(pathToFileURL(resolve(file)).href);
