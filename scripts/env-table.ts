// Prints the README's environment-variable table from the config schema: `npx tsx scripts/env-table.ts`.
import { envTable } from '../src/config-docs';

process.stdout.write(`${envTable()}\n`);
