import { describe, expect, it } from 'vitest';
import { UnreachableError } from '../../src/core/errors';
import { Compartment, DOWN_FOR_MS, ServiceCircuit, STUCK_AFTER_MS } from '../../src/services/bulkhead';

describe('a compartment', () => {
  it('lets `size` requests in, lines up the next ones in order, and hands a freed place to the first in line', async () => {
    const compartment = new Compartment('toolhost', 2);
    const first = await compartment.take(undefined, true);
    const second = await compartment.take(undefined, true);
    const order: string[] = [];
    const third = compartment.take(undefined, true).then((release) => {
      order.push('third');
      return release;
    });
    const fourth = compartment.take(undefined, true).then((release) => {
      order.push('fourth');
      return release;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    first();
    (await third)();
    second();
    (await fourth)();
    expect(order).toEqual(['third', 'fourth']);
    // Released twice, a place is freed once: two fit again, the third waits.
    first();
    const a = await compartment.take(undefined, true);
    await compartment.take(undefined, true);
    let waited = false;
    const c = compartment.take(undefined, true).then(() => {
      waited = true;
    });
    await Promise.resolve();
    expect(waited).toBe(false);
    a();
    await c;
    expect(waited).toBe(true);
  });

  it('refuses a command past its line at once, in words, and lets a waiting one go at its deadline', async () => {
    const compartment = new Compartment('toolhost', 1);
    const held = await compartment.take(undefined, true);
    const controller = new AbortController();
    const waiting = [compartment.take(controller.signal, true), compartment.take(controller.signal, true)];
    const refused = await compartment.take(undefined, true).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnreachableError);
    expect((refused as Error).message).toBe(
      'The tool platform is slow to answer: 1 requests are open and 2 more wait for it already, so this one was not sent.',
    );
    // Background work (no command waiting on it) is not refused: it waits.
    let started = false;
    const background = compartment.take(undefined, false).then(() => {
      started = true;
    });
    controller.abort(new Error('deadline'));
    for (const entry of waiting) await expect(entry).rejects.toThrow('deadline');
    expect(started).toBe(false);
    held();
    await background;
    expect(started).toBe(true);
  });

  it('lets a burst of any size wait its turn while places are being freed, and bounds the line once none is', async () => {
    let now = 0;
    const compartment = new Compartment('toolhost', 1, () => now);
    (await compartment.take(undefined, true))();
    const held = await compartment.take(undefined, true);
    // A place was freed just now: ten commands wait, none refused (the line's bound is two).
    const burst = Array.from({ length: 10 }, () => compartment.take(undefined, true));
    now = STUCK_AFTER_MS - 1;
    const eleventh = compartment.take(undefined, true);
    // Then nothing freed for a second: the next one is refused at once, in words.
    now = STUCK_AFTER_MS;
    const refused = await compartment.take(undefined, true).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnreachableError);
    expect((refused as Error).message).toContain('1 requests are open and 11 more wait for it already');
    // The line is served in order as places free.
    held();
    for (const waiting of [...burst, eleventh]) (await waiting)();
  });
});

describe("a service's circuit", () => {
  it('is known down after 3 unanswered requests in a row, for a while; an answer closes the outage', () => {
    const circuit = new ServiceCircuit('calendar');
    circuit.unanswered(0);
    circuit.unanswered(0);
    circuit.answered();
    circuit.unanswered(0);
    circuit.unanswered(0);
    expect(() => circuit.check(1)).not.toThrow();
    circuit.unanswered(1000);
    expect(() => circuit.check(2000)).toThrow(
      'The calendar is not answering: its last 3 requests went unanswered, so Deckhand is not sending it more for 29 s.',
    );
    expect(() => circuit.check(1000 + DOWN_FOR_MS)).not.toThrow();
    circuit.answered();
    circuit.unanswered(DOWN_FOR_MS + 2000);
    expect(() => circuit.check(DOWN_FOR_MS + 2000)).not.toThrow();
  });
});
