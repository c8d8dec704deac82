// Writes the generated docs (`docs/commands.md`, the table in `docs/configuration.md`): `npm run docs`.
// With `--check` it writes nothing and exits 1 naming each stale file.
import { readFileSync, writeFileSync } from 'node:fs';
import { commandReference, withEnvTable } from './docs-content';

const files: Record<string, string> = {
  'docs/commands.md': commandReference(),
  'docs/configuration.md': withEnvTable(readFileSync('docs/configuration.md', 'utf8')),
};
const check = process.argv.includes('--check');
let stale = 0;
for (const [path, content] of Object.entries(files)) {
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {}
  if (current === content) continue;
  stale += 1;
  if (check) process.stderr.write(`${path} is stale: run npm run docs\n`);
  else writeFileSync(path, content);
}
if (check && stale > 0) process.exit(1);
process.stdout.write(check ? 'docs are up to date\n' : `docs: ${stale} file(s) written\n`);
