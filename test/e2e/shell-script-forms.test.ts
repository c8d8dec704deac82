/**
 * The terminal chat in a script: a form never takes the next command line as its answer (it reads
 * `--answers` or is refused), and a card keeps its button numbers across its updates.
 */
import { describe, expect, it } from 'vitest';
import { messages, posted, runShellScript } from '../support/cli';

const SCRIPT = '/envvars set mytool SCRIPT_VAR\n/envvars show mytool SCRIPT_VAR\n';

describe('forms in a scripted terminal chat', () => {
  it('refuses a form without --answers and runs the next line as the next command', async () => {
    const run = await runShellScript(
      '/envvars set mytool SCRIPT_VAR\n/envvars delete mytool SCRIPT_VAR\n/envvars show mytool SCRIPT_VAR\n',
      { wait: 5 },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "“Set SCRIPT_VAR of mytool” is a form, and a script does not answer forms line by line: it needs --answers (run the script with --answers 'value=…').",
    );
    expect(run.stdout).toContain('The form was not opened; its fields: value.');
    // The command heard it: it does not claim a form was opened.
    expect(run.stdout).not.toContain('Opened a form');
    expect(posted(run.stdout, 1)).toContain('Give the value: /envvars set mytool SCRIPT_VAR <value>');
    // The delete line ran as a command (it asks for confirmation), not as the variable's value.
    expect(run.stdout).toMatch(/Delete SCRIPT_VAR|SCRIPT_VAR[\s\S]*(does not exist|no variable|not found)/i);
    expect(run.stdout).not.toContain('/envvars delete mytool SCRIPT_VAR (value');
    const show = messages(run.stdout).at(-1) as string;
    expect(show).not.toMatch(/\[done\][\s\S]*SCRIPT_VAR/);
    expect(show).not.toContain('/envvars delete');
  });

  it('without --answers, /link media offers its secret page and does not say a form opened', async () => {
    const run = await runShellScript('/link media\n', { wait: 5 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "“Media API key” is a form, and a script does not answer forms line by line: it needs --answers (run the script with --answers 'apiKey=…').",
    );
    expect(run.stdout).not.toContain('Opened a form');
    expect(posted(run.stdout, 1)).toMatch(/Enter it on this private page[\s\S]*\/secrets\//);
  });

  it('fills the form from --answers (name=value), the value hidden in the output', async () => {
    const run = await runShellScript(SCRIPT, {
      argv: ['shell', '--sandbox', '--wait', '5', '--answers', 'value=from-answers-42'],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Set SCRIPT_VAR of mytool (answers from --answers)');
    expect(run.stdout).toContain('Value of SCRIPT_VAR: (hidden)');
    expect(run.stdout).toMatch(/Set SCRIPT_VAR of mytool \(value /);
    // Shown in full only by `show` in this private conversation: it is the answer, not a script line.
    expect(run.stdout).toContain('from-answers-42');
    expect(run.stdout.indexOf('from-answers-42')).toBeGreaterThan(run.stdout.indexOf('envvars show'));
  });

  it('says what is wrong with --answers and starts nothing', async () => {
    const run = await runShellScript(SCRIPT, {
      argv: ['shell', '--sandbox', '--answers', '{"value": [1]}'],
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--answers must map field names to text');
    expect(run.stdout).toBe('');
  });
});

describe('button numbers in the terminal', () => {
  it('keeps a deployment card’s numbers across its updates, and card labels are not numbers', async () => {
    // Steps of 1.5 s: the card is drawn several times while the deployment runs, however busy the
    // machine (with 20 ms steps a slow first poll could find it finished).
    const run = await runShellScript('/deploy mytool\n', { wait: 90, env: { SANDBOX_STEP_MS: '1500' } });
    expect(run.code, run.stderr).toBe(0);
    const cards = messages(run.stdout);
    expect(cards[0]).toMatch(/^card 1\n/);
    const cancels = cards.map((c) => /\[(\d+)\] Cancel/.exec(c)?.[1]).filter(Boolean);
    const logs = cards.map((c) => /\[(\d+)\] View logs/.exec(c)?.[1]).filter(Boolean);
    expect(cancels.length).toBeGreaterThan(1);
    expect(new Set(cancels).size).toBe(1);
    expect(new Set(logs).size).toBeLessThanOrEqual(1);
    const redeploy = /\[(\d+)\] Redeploy/.exec(cards.at(-1) as string)?.[1];
    expect(redeploy).toBeDefined();
    expect(redeploy).not.toBe(cancels[0]);
    expect(posted(run.stdout, 1)).not.toMatch(/#\d/);
  }, 180_000);
});
