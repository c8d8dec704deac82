import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envTable } from '../../src/config-docs';

describe('README', () => {
  it('documents every environment variable exactly as the config schema defines it', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const section = /<!-- env-table:start -->\n([\s\S]*?)\n<!-- env-table:end -->/.exec(readme)?.[1];
    expect(section, 'regenerate with: npx tsx scripts/env-table.ts').toBe(envTable());
  });
});
