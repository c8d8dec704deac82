import { describe, expect, it } from 'vitest';
import { messages, posted, runShellScript } from '../support/cli';

describe('deckhand shell on the sandbox', () => {
  it('follows /deploy mytool on one card until it is successful, and exits 0', async () => {
    const run = await runShellScript('/deploy mytool\n', { wait: 60 });
    expect(run.stderr).not.toMatch(/Error|at .*\.ts/);
    expect(run.code).toBe(0);
    const cards = messages(run.stdout);
    expect(cards[0]).toMatch(/^card 1\n\[in progress\] Deploy mytool/);
    expect(cards.length).toBeGreaterThan(1);
    for (const update of cards.slice(1)) expect(update).toMatch(/^card 1 updated\n/);
    const last = cards.at(-1) as string;
    expect(last).toContain('[done] Deploy mytool');
    expect(last).toMatch(/Status\s+successful/);
    expect(last).toMatch(/\[\d+\] Redeploy/);
    expect(run.stdout.match(/You are using a beta feature/g)).toHaveLength(1);
  });

  it('starts, cancels and lists a build, each result shown', async () => {
    const run = await runShellScript(
      '/build start mytool https://example.org/repo.git\n/build cancel mytool latest\n/build list mytool\n',
      { wait: 60 },
    );
    expect(run.code).toBe(0);
    const id = /build (mytool-buildpacks-pipelinerun-\w+)/.exec(run.stdout)?.[1];
    expect(id).toBeDefined();
    const [started, cancelled, list] = [1, 2, 3].map((n) => posted(run.stdout, n));
    expect(started).toContain('Build started.');
    expect(cancelled).toMatch(/Build cancelled\.|Nothing to cancel: the build is already/);
    expect(list).toContain('Builds of mytool');
    expect(list).toMatch(new RegExp(`${id}\\s+(cancelled|ok|error)`));
  });

  it('exits 1 when the wait runs out before the work is done', async () => {
    const run = await runShellScript('/deploy mytool\n', { wait: 1, env: { SANDBOX_STEP_MS: '5000' } });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain('Stopped waiting after 1 s');
  });

  it('asks before a destructive command, and the numbered button confirms it', async () => {
    const run = await runShellScript('/config delete demo\n1\n/config show demo\n2\n', { wait: 10 });
    expect(run.code).toBe(0);
    const [ask, done, show, lateCancel] = [1, 2, 3, 4].map((n) => posted(run.stdout, n));
    expect(ask).toContain('Delete the components configuration of demo?');
    expect(ask).toContain('[1] Confirm  [2] Cancel');
    expect(done).toContain('Deleted the components configuration of demo.');
    expect(show).toContain('Tool demo has no component configuration yet.');
    expect(lateCancel).toContain('This was already confirmed or cancelled.');
  });
});

describe('deckhand start with no configuration', () => {
  it('opens the terminal chat on the sandbox (what `npm start` runs)', async () => {
    const run = await runShellScript('/tool status mytool\n', { argv: ['start'], env: { REDIS_URL: '' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Status of mytool');
    expect(run.stdout).toMatch(/Latest deployment\s+successful/);
  });
});
