/**
 * The sandbox says what a user cannot guess: its time runs fast (start-up line and the card of a
 * scheduled job), and where its media host listens (start-up and `deckhand status`), since the
 * media guide asks users to type that address.
 */

import { Redis } from 'ioredis';
import { describe, expect, inject, it } from 'vitest';
import { publishSandboxNotes } from '../../src/wiring/sandbox-notes';
import { startTestApp, type TestApp } from '../support/app';
import { runShellScript, spawnDeckhand } from '../support/cli';
import { testPrefix } from '../support/redis';
import { useStarted } from '../support/started';

describe('sandbox notes', () => {
  it('start-up names the media host’s address and says time is compressed', async () => {
    const run = await runShellScript('/media account\n', { wait: 5 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'Sandbox time is compressed: a build or deployment step takes 20 ms (SANDBOX_STEP_MS), and scheduled jobs run every 1.2 s whatever their schedule.',
    );
    expect(run.stderr).toMatch(
      /Sandbox media host: http:\/\/127\.0\.0\.1:\d+ \(sample files for \/media upload-url: http:\/\/127\.0\.0\.1:\d+\/samples\/talk\.mp4\?size=5000000\)\./,
    );
  });

  it('deckhand status shows the notes a running sandbox keeps in Redis, and none once it stopped', async () => {
    const { host, port } = inject('redis');
    const prefix = testPrefix();
    const redis = new Redis(`redis://${host}:${port}`);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      REDIS_URL: `redis://${host}:${port}`,
      REDIS_KEY_PREFIX: prefix,
    };
    try {
      const note = 'Sandbox media host: http://127.0.0.1:40125 (sample files for /media upload-url: …).';
      const unpublish = await publishSandboxNotes(redis, prefix, [note]);
      const running = await spawnDeckhand(['status'], env, '');
      expect(running.code, running.stderr).toBe(0);
      expect(running.stdout).toContain(note);
      await unpublish();
      const stopped = await spawnDeckhand(['status'], env, '');
      expect(stopped.stdout).toContain('QUEUE');
      expect(stopped.stdout).not.toContain('Sandbox media host');
    } finally {
      redis.disconnect();
    }
  });
});

describe('the card of a scheduled job on the sandbox', () => {
  let t: TestApp;
  useStarted(startTestApp, (started) => {
    t = started;
  });

  it('says sandbox time is compressed; a continuous job’s card does not', async () => {
    const [scheduled] = await t.say('/jobs show mytool daily-report');
    expect(scheduled?.text).toContain('Sandbox time is compressed: scheduled jobs run every 60 steps');
    const [continuous] = await t.say('/jobs show mytool web');
    expect(continuous?.text ?? '').not.toContain('Sandbox time');
  });
});
