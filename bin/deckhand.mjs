#!/usr/bin/env node
// Entry point. Checks the Node version first, then runs the compiled dist/main.js — or, when dist/ is
// missing or older than a source file (development), src/main.ts through tsx. See source-choice.mjs.
import './check-node.mjs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chooseSource } from './source-choice.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
let choice;
try {
  choice = chooseSource(ROOT, process.env.DECKHAND_RUN);
} catch (error) {
  process.stderr.write(`deckhand: ${error.message}\n`);
  process.exit(2);
}
if (process.env.DECKHAND_DEBUG_RUN)
  process.stderr.write(`deckhand: running ${choice.kind} (${choice.why})\n`);
if (choice.kind === 'dist') {
  await import(pathToFileURL(join(ROOT, 'dist', 'main.js')).href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write(
      `deckhand: ${choice.why} and tsx (a development dependency) is not installed: run \`npm run build\`, or \`npm ci\` with dev dependencies.\n`,
    );
    process.exit(2);
  }
  register();
  await import(pathToFileURL(join(ROOT, 'src', 'main.ts')).href);
}
