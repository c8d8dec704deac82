import { describe, expect, it } from 'vitest';
import { messages, posted, runShellScript } from '../support/cli';

describe('deckhand shell: an approval by a second maintainer', () => {
  it('refuses the requester and a non-maintainer, and deploys once another maintainer approves', async () => {
    const run = await runShellScript(
      [
        '/tool protect mytool deploy',
        '/deploy mytool',
        'press 2 Approve',
        'as carol press 2 Approve',
        'as bob press 2 Approve',
        'as bob press 2 Approve',
        '',
      ].join('\n'),
      {
        argv: ['shell', '--sandbox', '--wait', '60', '--as', 'ada'],
        env: { TOOL_MAINTAINERS: 'mytool=shell:ada,mytool=shell:bob' },
      },
    );
    expect(run.stderr).not.toMatch(/Error|at .*\.ts/);
    expect(run.code, run.stdout).toBe(0);
    expect(posted(run.stdout, 1)).toContain('mytool is protected');
    expect(posted(run.stdout, 2)).toContain('Approval needed: /deploy mytool');
    expect(run.stdout).toContain('You asked for this yourself');
    expect(run.stdout).toContain('Only maintainers of mytool can approve or deny this');
    expect(run.stdout).toMatch(/card 2 updated\n\[done\] Approval needed[\s\S]*Approved by\s+bob/);
    // The decided card has no buttons left: a second press finds nothing to press.
    expect(run.stdout).toContain('Card 2 has no button “Approve” (it has no buttons now); nothing was done.');
    // One deployment card posted (a slow machine may also print it again as `card N updated`).
    expect(run.stdout.match(/card \d+\n\[in progress\] Deploy mytool/g)).toHaveLength(1);
    expect(messages(run.stdout).at(-1)).toContain('[done] Deploy mytool');
  });
});
