import { describe, expect, it } from 'vitest';
import { messages, posted, runShellScript } from '../support/cli';

describe('deckhand shell: a tool lock', () => {
  it('refuses /deploy while mytool is locked, naming the holder, and deploys once it is unlocked', async () => {
    const run = await runShellScript(
      '/tool lock mytool release prep --for 2h\n/deploy mytool\n/tool freezes mytool\n/tool unlock mytool\n/deploy mytool\n',
      { wait: 60 },
    );
    expect(run.stderr).not.toMatch(/Error|at .*\.ts/);
    expect(run.code, run.stdout).toBe(0);
    const [locked, refused, status, unlocked] = [1, 2, 3, 4].map((n) => posted(run.stdout, n));
    expect(locked).toContain('mytool is locked');
    expect(locked).toMatch(/Locked by\s+tester/);
    expect(refused).toMatch(/mytool is locked by tester since .+ \("release prep"\), until /);
    expect(refused).toContain('/tool unlock mytool');
    expect(status).toContain('Deploys and destructive commands of mytool are refused now.');
    expect(unlocked).toContain('mytool is unlocked');
    const last = messages(run.stdout).at(-1) as string;
    expect(last).toContain('[done] Deploy mytool');
  });
});
