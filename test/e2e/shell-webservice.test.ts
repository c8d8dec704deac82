import { describe, expect, it } from 'vitest';
import { posted, runShellScript } from '../support/cli';

describe('deckhand shell: the web service', () => {
  it('/webservice restart mytool ends with the service running', async () => {
    const run = await runShellScript('/webservice restart mytool\n', { wait: 60 });
    expect(run.code).toBe(0);
    const card = posted(run.stdout, 1);
    expect(card).toContain('Web service of mytool');
    // The card is edited in place until the published job runs again; its last state is printed last.
    const last = run.stdout.slice(run.stdout.lastIndexOf('Web service of mytool'));
    expect(run.stdout).toMatch(/\[done\] Web service of mytool/);
    expect(last).toMatch(/is running at http:\/\/mytool\.localhost:\d+\//);
    expect(last).toMatch(/Status\s+running \(restarted \(1\)\)/);
  });
});
