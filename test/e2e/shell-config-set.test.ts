import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messages, posted, runShellScript } from '../support/cli';

/** The path the terminal chat wrote a card's attachment to. */
const writtenFile = (card: string) => /\(file written: (.+)\)/.exec(card)?.[1];

describe('deckhand shell: saving a components configuration from a file', () => {
  it('restores a deleted configuration from its dump, and the deployment then succeeds', async () => {
    const dump = await runShellScript('/config dump demo\n', { wait: 10 });
    expect(dump.code, dump.stderr).toBe(0);
    const path = writtenFile(posted(dump.stdout, 1));
    expect(path).toBeDefined();
    expect(readFileSync(path as string, 'utf8')).toContain('components:');

    const run = await runShellScript(
      `/config delete demo\n1\n/deploy demo\n/config set demo --file ${path}\n3\n/deploy demo\n`,
      { wait: 90 },
    );
    expect(run.stderr).not.toMatch(/Error|at .*\.ts/);
    expect(run.code, run.stdout).toBe(0);
    const [, deleted, refused, ask, saved, deploy] = [1, 2, 3, 4, 5, 6].map((n) => posted(run.stdout, n));
    expect(deleted).toContain('Deleted the components configuration of demo.');
    expect(refused).toContain('demo has no components configuration yet, so there is nothing to deploy.');
    expect(refused).toContain('Save one with /config set demo (attach its toolforge.yaml)');
    expect(refused).toContain('/config generate demo');
    expect(refused).toContain('Nothing was started.');
    expect(ask).toContain('Save this components configuration for demo?');
    expect(ask).toContain('demo has no configuration yet: all of it is new.');
    expect(ask).toMatch(/│ +command: web/);
    expect(ask).toContain('[3] Confirm  [4] Cancel');
    expect(saved).toContain('Configuration of demo saved');
    expect(deploy).toContain('Deploy demo');
    const last = messages(run.stdout)
      .filter((m) => /^card 6( updated)?\n/.test(m))
      .at(-1) as string;
    expect(last).toMatch(/Status\s+successful/);
  });

  it('refuses an invalid file before asking anything, naming the field', async () => {
    const run = await runShellScript(
      '/config set demo --file test/e2e/fixtures/toolforge-bad-port.yaml\n/config set demo --file nowhere.yaml\n/config show demo\n',
      { wait: 10 },
    );
    expect(run.code).toBe(0);
    const [bad, show] = [1, 2].map((n) => posted(run.stdout, n));
    expect(bad).toContain('is not a valid components configuration, so nothing was saved');
    expect(bad).toContain('components → web → run → port: expected number, received string');
    expect(bad).not.toContain('Confirm');
    expect(run.stdout).toContain('There is no file nowhere.yaml');
    expect(show).toContain('Configuration of demo');
  });
});
