// Rewrites the environment-variable table in README.md from the config schema: `npx tsx scripts/env-table.ts`.
import { readFileSync, writeFileSync } from 'node:fs';
import { envTable } from '../src/config-docs';

const readme = readFileSync('README.md', 'utf8');
const updated = readme.replace(
  /<!-- env-table:start -->\n[\s\S]*?\n<!-- env-table:end -->/,
  () => `<!-- env-table:start -->\n${envTable()}\n<!-- env-table:end -->`,
);
writeFileSync('README.md', updated);
