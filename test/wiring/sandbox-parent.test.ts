/**
 * `deckhand sandbox` run by `start --sandbox` (sandbox-child.ts) takes its parent's requests on stdin:
 * `hook <url> <secret>` registers Deckhand's webhook with the source host emulator (once), and the end
 * of stdin — the parent is gone — stops the emulators.
 */
import { PassThrough } from 'node:stream';
import { type SourcehostSandbox, startSourcehostSandbox } from '@deckhand/sandbox/sourcehost';
import { describe, expect, it } from 'vitest';
import { listenToParent } from '../../src/wiring/sandbox-standalone';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let sourcehost: SourcehostSandbox;

useStarted(
  () => startSourcehostSandbox({ stepMs: 20 }),
  (started) => {
    sourcehost = started;
  },
);

describe('the sandbox process and its parent', () => {
  it('registers the webhook a hook line names, once, and stops when stdin ends', async () => {
    const stdin = new PassThrough();
    let stopped = false;
    listenToParent(stdin, sourcehost, () => {
      stopped = true;
    });
    const url = 'http://127.0.0.1:4321/webhooks/source';
    stdin.write(`hook ${url} s3cret-value\n`);
    stdin.write(`hook ${url} s3cret-value\n`);
    stdin.write('nonsense line\n');
    await waitFor(() => sourcehost.state.hooks.length > 0);
    stdin.end();
    await waitFor(() => stopped);
    expect(sourcehost.state.hooks.map((h) => ({ url: h.url, secret: h.secret }))).toEqual([
      { url, secret: 's3cret-value' },
    ]);
  });
});
