import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messages, posted, runShellScript } from '../support/cli';

describe('deckhand shell: /media upload --file PATH', () => {
  it('streams a local file to the media host on the same progress card as a chat upload', async () => {
    const dir = (await runShellScript('', { wait: 1 })).dataDir;
    const path = join(dir, 'my clip.mp4');
    writeFileSync(path, Buffer.alloc(3 * 1024 * 1024, 7));
    const run = await runShellScript(
      `/media upload --file "${path}" --title "Launch trailer"\n/media upload\n`,
      {
        wait: 30,
      },
    );
    expect(run.stderr).not.toMatch(/Error|at .*\.ts/);
    expect(run.code, run.stdout).toBe(0);
    const card = messages(run.stdout).filter((m) => /^card 1( updated)?\n/.test(m));
    expect(card[0]).toContain('[in progress] Uploading my clip.mp4');
    expect(card[0]).toContain('3.0 MB');
    const done = card.at(-1) as string;
    expect(done).toContain('[done] Uploaded Launch trailer');
    expect(done).toMatch(/File code\s+\w{12}/);
    expect(posted(run.stdout, 2)).toContain('Terminal: /media upload --file PATH.');
  });

  it('says so when the file is missing or --file has no path, and uploads nothing', async () => {
    const run = await runShellScript('/media upload --file /nonexistent/x.mp4\n/media upload --file\n', {
      wait: 5,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'There is no file /nonexistent/x.mp4 (looked for /nonexistent/x.mp4). Nothing was done.',
    );
    expect(run.stdout).toContain('--file needs the path of a file');
    expect(run.stdout).not.toContain('Uploading');
  });
});
