import { describe, expect, it } from 'vitest';
import { messages, runShellScript } from '../support/cli';

describe('deckhand shell --sandbox: Phabricator tasks', () => {
  it('shows a task of the embedded Phabricator emulator by its id, and says so for one that does not exist', async () => {
    const run = await runShellScript('/task T123\n/task T424242\n', { wait: 30 });
    expect(run.stderr).not.toMatch(/Error|at .*\.ts/);
    expect(run.code, run.stdout).toBe(0);
    const [found, missing] = messages(run.stdout);
    expect(found).toContain('Deploy the new webservice of mytool');
    expect(found).toContain('/T123');
    expect(missing).not.toContain('Deploy the new webservice');
    expect(missing).toMatch(/T424242/);
  });
});
