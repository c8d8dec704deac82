import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellEnv } from '../support/cli';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';
import { launchChromium } from './chromium';

let browser: Awaited<ReturnType<typeof launchChromium>>;

useStarted(launchChromium, (started) => {
  browser = started;
});

describe('deckhand shell on the sandbox', () => {
  it('the terminal user links the source host by opening the printed link in a browser', async () => {
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, '..', '..', 'bin', 'deckhand.mjs'), 'shell', '--sandbox'],
      {
        env: shellEnv(mkdtempSync(join(tmpdir(), 'deckhand-shell-oauth-'))),
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((done) => child.on('exit', done));
    try {
      child.stdin.write('/link source\n');
      const url = await waitFor(() => /Sign in to the source host: (\S+)/.exec(stdout)?.[1], 20_000);
      const page = await browser.context.newPage();
      await page.goto(url);
      expect(await page.textContent('#requester')).toBe('terminal user tester');
      await page.getByRole('button', { name: 'Continue to the source host' }).click();
      await page.getByLabel('Signed in as').selectOption('hubot');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForSelector('#login');
      expect(await page.textContent('#login')).toBe('hubot');
      await waitFor(
        () => stdout.includes('Linked the source-host account hubot to terminal user tester.'),
        10_000,
      );
      child.stdin.write('/whoami\n');
      await waitFor(() => /Source host\s+hubot \(scopes: read:user\)/.test(stdout), 10_000);
    } finally {
      child.stdin.end();
    }
    expect(await exited).toBe(0);
  });
});
