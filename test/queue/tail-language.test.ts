/**
 * A live log tail in the conversation's language: the first card, every edit and the final card with
 * the transcript are written in the language the tail started in, even when the conversation's
 * setting changes while it runs.
 */
import { describe, expect, it } from 'vitest';
import { button, startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let t: TestApp;
useStarted(
  () => startTestApp({ TAIL_EDIT_MS: '300', TAIL_MAX_MINUTES: '1' }),
  (started) => {
    t = started;
  },
);

describe('a live log tail in German', () => {
  it('writes its first card, its edits and its final card in the conversation’s language', async () => {
    await t.say('/language --here de');
    const [card] = await t.say('/logs demo api --follow');
    expect(card?.title).toBe('Live-Log: Job api von demo');
    expect(card?.buttons?.map((b) => b.label)).toEqual(['Stopp']);
    const ref = String(t.transcript.posted.indexOf(card as never) + 1);
    const edit = await waitFor(
      () => t.transcript.updates.find((u) => u.handle.ref.ts === ref && /bisher/.test(u.card.footer ?? '')),
      30_000,
    );
    expect(edit.card.title).toBe('Live-Log: Job api von demo');
    // The edits keep the first card's language, whatever the conversation says later.
    await t.say('/language --here default');
    const [stop] = await t.press(
      button(t.transcript.updates.filter((u) => u.handle.ref.ts === ref).at(-1)?.card, 'Stopp'),
    );
    expect(stop).toBeDefined();
    const ended = await waitFor(
      () => t.transcript.updates.find((u) => u.handle.ref.ts === ref && u.card.attachments),
      20_000,
    );
    expect(ended.card.title).toBe('Log von Job api von demo');
    expect(ended.card.text).toMatch(/^Verfolgung beendet, wie gewünscht/);
  }, 60_000);
});
