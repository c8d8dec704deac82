/** `/timezone` in the terminal chat: cards show their times in the conversation's zone. */
import { describe, expect, it } from 'vitest';
import { messages, posted, runShellScript } from '../support/cli';

describe('/timezone', () => {
  it('refuses an unknown zone, then shows the deployment card’s times in the zone set', async () => {
    const run = await runShellScript(
      '/timezone Mars/Olympus\n/timezone\n/timezone Europe/Berlin\n/deploy mytool\n',
      { wait: 60 },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(posted(run.stdout, 1)).toContain('Mars/Olympus is not a time zone Deckhand knows.');
    expect(posted(run.stdout, 2)).toContain('Times here are shown in UTC');
    expect(posted(run.stdout, 3)).toContain('Times in this conversation are now shown in Europe/Berlin');
    const last = messages(run.stdout).at(-1) as string;
    expect(last).toContain('[done] Deploy mytool');
    expect(last).toMatch(/Started\s+\w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \(Europe\/Berlin\)\n/);
    expect(last).toMatch(/Finished\s+\w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \(Europe\/Berlin\)\n/);
    // A finished card says no "just now" that would stay there; no raw ISO time anywhere.
    expect(last).not.toMatch(/just now|ago\)/);
    expect(run.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });
});
