/**
 * A restart of the sandbox on its embedded Redis (no REDIS_URL): the queues start empty, but what a
 * conversation set up is kept and keeps working — a subscribed tool is still discovered (`deckhand
 * status` counts it, as `/subscriptions` lists it) and the calendar digest is still scheduled. The
 * same `deckhand status` shows its queue table aligned and the sandbox tool platform's health.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureOutput, childEnv } from '../support/child-output';
import { spawnDeckhand } from '../support/cli';
import { waitFor } from '../support/wait';

const ROOT = join(import.meta.dirname, '..', '..');

describe('restarting the sandbox on its embedded Redis', () => {
  it('keeps subscriptions and digests working: status counts the tool, the digest is still scheduled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deckhand-restart-'));
    const env = childEnv({
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      SANDBOX_STEP_MS: '20',
      SHELL_USER: 'tester',
    });
    const first = await spawnDeckhand(
      ['shell', '--sandbox'],
      env,
      '/subscribe mytool\n/calendar digest --daily --at 08:30\n',
    );
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('now gets a daily');

    // The second run stays up (stdin open) while `deckhand status` reads its embedded Redis.
    const second = spawn(process.execPath, [join(ROOT, 'bin', 'deckhand.mjs'), 'shell', '--sandbox'], {
      cwd: ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const { stdout, stderr } = captureOutput(second);
    const exited = new Promise<number | null>((resolve) => second.once('exit', resolve));
    try {
      await waitFor(() => {
        if (second.exitCode !== null) throw new Error(`the second run exited:\n${stderr()}`);
        return stderr().includes('Services:');
      }, 90_000);
      const status = await spawnDeckhand(['status'], env, '');
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain('Discovery: 1 subscribed tool(s): mytool');
      // The queue table's rows end at the same column, however long a queue's name.
      const table = (status.stdout.split('\n\n')[0] as string).split('\n');
      expect(table[0]).toMatch(/^QUEUE\s+WAITING\s+ACTIVE\s+DELAYED\s+FAILED$/);
      expect(new Set(table.map((row) => row.length)).size, table.join('\n')).toBe(1);
      // The running sandbox's tool platform emulator, asked for its health.
      expect(status.stdout).toMatch(/^Tool platform \(sandbox emulator\): healthy\n {2}builds\s+OK$/m);
      second.stdin.end('/subscriptions\n/calendar digest\n');
      expect(await exited).toBe(0);
    } finally {
      if (second.exitCode === null) second.kill('SIGKILL');
    }
    expect(stdout()).toMatch(/mytool/);
    expect(stdout()).toMatch(/This conversation gets a daily .*08:30/);
    expect(stdout()).not.toContain('has no calendar digest');
  }, 240_000);
});
