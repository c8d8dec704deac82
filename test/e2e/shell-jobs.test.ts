import { describe, expect, it } from 'vitest';
import { posted, runShellScript } from '../support/cli';

describe('deckhand shell: jobs, logs and the status card', () => {
  it('lists jobs, restarts one (visible in its status), shows its logs and the tool status', async () => {
    const run = await runShellScript(
      '/jobs list mytool\n/jobs restart mytool web\n/logs mytool web --lines 5\n/tool status mytool\n',
      { wait: 30 },
    );
    expect(run.code).toBe(0);
    const [list, restart, logs, status] = [1, 2, 3, 4].map((n) => posted(run.stdout, n)) as [
      string,
      string,
      string,
      string,
    ];
    expect(list).toMatch(/web\s+continuous\s+running/);
    expect(restart).toContain('Job web of mytool');
    expect(restart).toMatch(/Status\s+\w+ \(.*restarted \(1\)/);
    expect(logs).toContain('Logs of web (mytool)');
    expect(logs.match(/│ \d{2}:\d{2}:\d{2} /g)).toHaveLength(5);
    expect(status).toContain('Status of mytool');
    expect(status).toMatch(/Job web\s+continuous · \w+ \(.*restarted \(1\)/);
    expect(status).toMatch(/Latest deployment\s+successful/);
  });
});
