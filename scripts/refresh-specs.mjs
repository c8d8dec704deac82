#!/usr/bin/env node
/**
 * Refreshes the project's copy of the API descriptions (`specs/`) from a maintained copy whose
 * folder is given as the argument (in the project workspace, the `specs` folder beside this
 * repository). Files that exist only in `specs/` (the README, audits) are kept. Run by hand; nothing
 * at test or run time reads outside the repository.
 *
 *   node scripts/refresh-specs.mjs <folder with toolforge/, platforms/, sourcehost/, …>
 */
import { cpSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [from] = process.argv.slice(2);
if (!from) {
  process.stderr.write('usage: node scripts/refresh-specs.mjs <folder of the maintained API descriptions>\n');
  process.exit(2);
}
const source = resolve(from);
if (!existsSync(source)) {
  process.stderr.write(`No folder at ${source}; nothing to refresh.\n`);
  process.exit(1);
}
cpSync(source, resolve(repo, 'specs'), { recursive: true, force: true });
process.stdout.write(`Copied ${source} over specs/. Review with: git diff --stat specs/\n`);
