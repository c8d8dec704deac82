/**
 * The documentation a user reads: the generated parts of `docs/` match the code they are generated
 * from (the command registry, the config schema), and the README stays a short front page with the
 * two commands.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_COMMANDS } from '../../commands';
import { commandReference, withEnvTable } from '../../scripts/docs-content';
import { envTable } from '../../src/config-docs';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const REGENERATE = 'stale: regenerate with npm run docs';

describe('docs', () => {
  it('docs/commands.md is the command registry as it is now', () => {
    expect(read('docs/commands.md'), REGENERATE).toBe(commandReference());
  });

  it('the command reference lists every registered command, and a new one makes it stale', () => {
    const reference = commandReference();
    for (const command of ALL_COMMANDS) expect(reference).toContain(`### \`/${command.name}\``);
    const extra = { ...(ALL_COMMANDS[0] as (typeof ALL_COMMANDS)[number]), name: 'deploy again' };
    expect(commandReference([...ALL_COMMANDS, extra])).not.toBe(read('docs/commands.md'));
  });

  it('docs/configuration.md documents every environment variable exactly as the config schema does', () => {
    const configuration = read('docs/configuration.md');
    expect(configuration, REGENERATE).toBe(withEnvTable(configuration));
    expect(configuration).toContain(envTable());
  });

  it('the README is a front page of at most 250 lines with the two commands and links to docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    for (const doc of ['commands', 'configuration', 'deployment', 'operations', 'benchmarks']) {
      expect(readme).toContain(`docs/${doc}.md`);
    }
  });
});
