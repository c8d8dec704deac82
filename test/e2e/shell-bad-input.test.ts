import { describe, expect, it } from 'vitest';
import { messages, runShellScript } from '../support/cli';

const BAD = [
  ['/frobnicate', /Unknown command \/frobnicate/],
  ['/build', /\/build commands[\s\S]*\/build start <tool> <source_url>/],
  ['/jobs lsit mytool', /Did you mean `\/jobs list`\?/],
  ['/deploy mytool --force-biuld', /Did you mean --force-build\?/],
  ['/build explode mytool', /Unknown subcommand `explode` for \/build/],
  ['/deploy', /Missing <tool>/],
  ['/deploy mytool surplus', /Too many arguments/],
  ['/deploy mytool --force', /Unknown option --force for \/deploy/],
  ['/deploy Not_A_Tool', /Invalid <tool>: must be a tool name/],
  ['/deploy nosuchtool', /Tool nosuchtool does not exist on the sandbox platform/],
  ['/build start mytool not-a-url', /Invalid <source_url>: must be an http\(s\) URL/],
  ['/build start mytool https://example.org/r.git --env lower', /Invalid --env/],
  ['/build start mytool https://example.org/r.git --ref', /--ref needs a value/],
  ['/deploy mytool --description=', /--description needs a value/],
  ['/build show mytool mytool-buildpacks-pipelinerun-zzzzz', /not found|does not exist/i],
  ['/deployment show mytool 20200101-000000-aaaaaaaaaa', /not found|does not exist/i],
  ['/token show "mytool', /quote is not closed/],
  ['7', /There is no button \[7\]/],
] as const;

describe('deckhand shell with malformed commands', () => {
  it('answers each with one clear message, no stack trace, and exits 0', async () => {
    const run = await runShellScript(`${BAD.map(([line]) => line).join('\n')}\n`, { wait: 5 });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(run.stdout).not.toContain('went wrong on our side');
    const replies = run.stdout.split(/\n(?=> )/).map((block) => block.split('\n').slice(1).join('\n'));
    expect(replies).toHaveLength(BAD.length);
    BAD.forEach(([line, expected], index) => {
      expect(replies[index], line).toMatch(expected);
    });
    expect(messages(run.stdout).every((m) => !m.includes('[done]'))).toBe(true);
  });

  it('names a 200 KB unknown command by its start, and refuses /logs --follow --newest-first', async () => {
    const wall = `/${'x'.repeat(200_000)}`;
    const run = await runShellScript(`${wall}\n/logs mytool web --follow --newest-first\n`, { wait: 5 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.length).toBeLessThan(2_000);
    expect(run.stdout).toContain(`> /${'x'.repeat(199)}… (200,001 characters)`);
    expect(run.stdout).toContain(`Unknown command /${'x'.repeat(40)}….`);
    const [, logs] = messages(run.stdout);
    expect(logs).toContain(
      '--follow adds new lines at the end as they come, so it cannot list the newest first: use --follow, or --newest-first without it.',
    );
    // Refused: no tail started (a tail's card has a Stop button).
    expect(run.stdout).not.toContain('Stop');
  });

  it('shows a deploy token only in the private terminal, never in the log', async () => {
    const run = await runShellScript('/token show mytool\n', { wait: 5 });
    const token = /Token\s+([0-9a-f-]{36})/.exec(run.stdout)?.[1];
    expect(token).toBeDefined();
    expect(run.log.length).toBeGreaterThan(0);
    expect(run.log).not.toContain(token);
  });
});

describe('deckhand with invalid configuration', () => {
  it('stops at start-up naming the variable and the fix', async () => {
    const run = await runShellScript('/help\n', { env: { TOOLHOST_TIMEOUT_MS: 'soon' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Invalid configuration:');
    expect(run.stderr).toMatch(/TOOLHOST_TIMEOUT_MS: .+ — Timeout of one request/);
    expect(run.stdout).toBe('');
  });
});
