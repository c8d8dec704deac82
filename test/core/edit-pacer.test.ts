import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EditPacer } from '../../src/core/edit-pacer';
import type { SendBudget } from '../../src/core/send-budget';

/** A group's budget: 3 edits a minute, 5 s apart; every topic of `g1` shares it. */
const budgetOf = (conversationId: string): SendBudget => ({
  scope: conversationId.split(':').slice(0, 3).join(':'),
  posts: { count: 3, perMs: 60_000 },
  edits: { count: 3, perMs: 60_000, minGapMs: 5000 },
});

/** A chat that records what each message shows, in the order the edits reach it. */
function chat() {
  const shown: { message: string; text: string; at: number }[] = [];
  return {
    shown,
    edit: (message: string, text: string) => async () => {
      shown.push({ message, text, at: Date.now() });
    },
    last: (message: string) => shown.filter((s) => s.message === message).at(-1)?.text,
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('edits within a budget', () => {
  it('coalesce: a burst of states shows the first at once and then only the latest, never over the budget', async () => {
    const pacer = new EditPacer(budgetOf);
    const room = chat();
    const calls = Array.from({ length: 30 }, (_, i) =>
      pacer.edit('t:b:g1', 'card', room.edit('card', `state ${i}`)),
    );
    await vi.runAllTimersAsync();
    await Promise.all(calls);
    expect(room.shown.map((s) => s.text)).toEqual(['state 0', 'state 29']);
    expect(pacer.pending()).toBe(0);
  });

  it('keep every window of the budget: the 4th edit waits until a minute after the 1st', async () => {
    const pacer = new EditPacer(budgetOf);
    const room = chat();
    for (let i = 0; i < 4; i++) {
      let done = false;
      void pacer.edit('t:b:g1', 'card', room.edit('card', `state ${i}`)).then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      while (!done) await vi.advanceTimersToNextTimerAsync();
    }
    const times = room.shown.map((s) => s.at - 1_000_000);
    expect(times).toEqual([0, 5000, 10_000, 60_000]);
  });

  it('share a scope between the topics of a group, taking turns, each card ending on its latest state', async () => {
    const pacer = new EditPacer(budgetOf);
    const room = chat();
    const calls: Promise<void>[] = [];
    for (let i = 0; i < 10; i++) {
      calls.push(pacer.edit('t:b:g1:topicA', 'a', room.edit('a', `a${i}`)));
      calls.push(pacer.edit('t:b:g1:topicB', 'b', room.edit('b', `b${i}`)));
    }
    await vi.runAllTimersAsync();
    await Promise.all(calls);
    expect(room.shown.map((s) => s.text)).toEqual(['a0', 'b9', 'a9']);
    expect(room.last('a')).toBe('a9');
    expect(room.last('b')).toBe('b9');
  });

  it('let other scopes edit at once, and pass an edit’s failure to everyone who waited for it', async () => {
    const pacer = new EditPacer(budgetOf);
    const room = chat();
    await pacer.edit('t:b:g1', 'card', room.edit('card', 'first'));
    const waiting = pacer.edit('t:b:g1', 'card', room.edit('card', 'replaced'));
    const failing = pacer.edit('t:b:g1', 'card', async () => {
      throw new Error('message to edit not found');
    });
    const elsewhere = pacer.edit('t:b:g2', 'card', room.edit('other', 'at once'));
    await elsewhere;
    expect(room.last('other')).toBe('at once');
    const outcomes = Promise.allSettled([waiting, failing]);
    await vi.runAllTimersAsync();
    expect((await outcomes).map((o) => (o.status === 'rejected' ? String(o.reason) : o.status))).toEqual([
      'Error: message to edit not found',
      'Error: message to edit not found',
    ]);
    expect(room.shown.map((s) => s.text)).toEqual(['first', 'at once']);
  });
});
