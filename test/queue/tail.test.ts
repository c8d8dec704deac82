import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { emitLogLines } from '@deckhand/sandbox/toolhost/jobs';
import { describe, expect, it } from 'vitest';
import { type QueueTailService, tailJobId } from '../../src/queue/tail-service';
import { button, startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

const EDIT_MS = 300;
let t: TestApp;
let sandbox: ToolhostSandbox;

useStarted(
  () => startTestApp({ TAIL_EDIT_MS: String(EDIT_MS), TAIL_MAX_MINUTES: '1' }),
  (started) => {
    t = started;
    sandbox = t.app.emulators.toolhost as ToolhostSandbox;
  },
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('live log tails', () => {
  it('edit at most once per interval, survive a broken stream, and attach the whole transcript in order', async () => {
    const [card] = await t.say('/logs demo api --follow');
    expect(card?.title).toBe('Live log: job api of demo');
    const ref = String(t.transcript.posted.indexOf(card as never) + 1);
    const started = Date.now();
    await waitFor(() =>
      t.transcript.updates.some(
        (u) => u.handle.ref.ts === ref && (u.card.footer ?? '').match(/^[1-9]\d* lines? so far/),
      ),
    );
    let n = 0;
    for (let burst = 0; burst < 12; burst++) {
      emitLogLines(
        sandbox.ctx,
        'demo',
        'api',
        Array.from({ length: 40 }, () => `tail-test n=${++n}`),
      );
      if (burst === 5) sandbox.controls.breakStreams();
      await sleep(100);
    }
    // Every line reached the tail (its transcript, in Redis): the card shows only the newest lines,
    // and the job's own output (one line a sandbox step) can push the last burst out of it between
    // two edits on a busy machine.
    const conversationId = t.transcript.updates.find((u) => u.handle.ref.ts === ref)?.handle
      .conversationId as string;
    const state = (t.app.services.tails as QueueTailService).stateOf(
      tailJobId('job', 'demo', 'api', conversationId),
    );
    await waitFor(async () => (await state.transcript()).some((line) => /n=480\b/.test(line)), 60_000);
    const [stop] = await t.press(
      button(t.transcript.updates.filter((u) => u.handle.ref.ts === ref).at(-1)?.card, 'Stop'),
    );
    expect(stop?.text).toContain('Stopping');
    const ended = await waitFor(
      () => t.transcript.updates.find((u) => u.handle.ref.ts === ref && u.card.attachments),
      20_000,
    );
    const elapsed = Date.now() - started;

    const edits = t.transcript.updates.filter((u) => u.handle.ref.ts === ref);
    expect(edits.length).toBeLessThanOrEqual(Math.ceil(elapsed / EDIT_MS) + 1);
    const transcript = ended.card.attachments?.[0]?.content.trimEnd().split('\n') ?? [];
    const numbered = transcript
      .filter((line) => line.includes('tail-test n='))
      .map((line) => Number(/n=(\d+)/.exec(line)?.[1]));
    expect(numbered).toEqual(Array.from({ length: 480 }, (_, i) => i + 1));
    expect(new Set(transcript).size).toBe(transcript.length);
    expect(ended.card.text, ended.card.text).toMatch(
      /^Stopped following, as asked \(Stop or \/(deckhand )?tail stop\)\. The whole/,
    );
    expect(ended.card.text).not.toContain('stopped.');
  }, 120_000);

  it('follows a build log until the build ends', async () => {
    const [started] = await t.say('/build start demo https://example.org/tailed.git');
    const id = /build (demo-buildpacks-pipelinerun-\w+)/.exec(started?.footer ?? '')?.[1] as string;
    const [card] = await t.say(`/build logs demo ${id} --follow`);
    expect(card?.title).toBe(`Live log: build ${id} of demo`);
    const ref = String(t.transcript.posted.indexOf(card as never) + 1);
    const ended = await waitFor(
      () => t.transcript.updates.find((u) => u.handle.ref.ts === ref && u.card.attachments),
      15_000,
    );
    expect(ended.card.text).toContain('the build finished');
    expect(ended.card.attachments?.[0]?.content).toContain('[step-build]');
  });

  it('refuses a second tail of the same job in the same conversation', async () => {
    await t.say('/logs mytool web --follow');
    const [again] = await t.say('/logs mytool web --follow');
    expect(again?.text).toContain('already being followed here');
    await t.say('/tail stop job mytool web');
  });
});
