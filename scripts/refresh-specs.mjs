#!/usr/bin/env node
/**
 * Refreshes the project's copy of the API descriptions (`specs/`) from the project workspace's
 * maintained copy beside the repository. Files that exist only in `specs/` (this README, audits)
 * are kept. Run by hand; nothing at test or run time reads outside the repository.
 */
import { cpSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = resolve(repo, '../shared/specs');
if (!existsSync(source)) {
  process.stderr.write(`No maintained copy at ${source}; nothing to refresh.\n`);
  process.exit(1);
}
cpSync(source, resolve(repo, 'specs'), { recursive: true, force: true });
process.stdout.write(`Copied ${source} over specs/. Review with: git diff --stat specs/\n`);
