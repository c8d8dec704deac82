// `node --import ./test/cli/record-imports.mjs …`: appends every bare package a process imports (one a
// line) to the file named by RECORD_IMPORTS, so a test can see which dependencies a command loaded.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
const file = process.env.RECORD_IMPORTS;
export async function resolve(specifier, context, next) {
  if (file && !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.includes(':')) {
    appendFileSync(file, specifier + '\\n');
  }
  return next(specifier, context);
}`)}`,
);
