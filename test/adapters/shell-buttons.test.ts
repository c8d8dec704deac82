import { describe, expect, it } from 'vitest';
import { CardButtonNumbers } from '../../adapters/shell/button-numbers';

const b = (label: string, actionId: string) => ({ label, actionId });

describe('terminal button numbers', () => {
  it('keeps a card’s numbers across updates and gives new buttons the next free number', () => {
    const numbers = new CardButtonNumbers();
    expect(numbers.number('1', [b('View logs', 'a1'), b('Cancel', 'a2')])).toEqual([1, 2]);
    expect(numbers.number('2', [b('Confirm', 'c1')])).toEqual([3]);
    // The first card is redrawn with fresh action ids: same labels, same numbers, new actions.
    expect(numbers.number('1', [b('View logs', 'a3'), b('Cancel', 'a4')])).toEqual([1, 2]);
    expect(numbers.press(2)).toEqual({ ok: true, actionId: 'a4' });
    // Finished: Cancel leaves, Redeploy arrives with a number never used before.
    expect(numbers.number('1', [b('View logs', 'a5'), b('Redeploy', 'a6')])).toEqual([1, 4]);
    expect(numbers.press(4)).toEqual({ ok: true, actionId: 'a6' });
    expect(numbers.press(3)).toEqual({ ok: true, actionId: 'c1' });
  });

  it('says a button left its card instead of pressing anything', () => {
    const numbers = new CardButtonNumbers();
    numbers.number('7', [b('Cancel', 'x')]);
    numbers.number('7', [b('Redeploy', 'y')]);
    expect(numbers.press(1)).toEqual({
      ok: false,
      message: 'Button [1] (Cancel) is no longer on card 7; nothing was done.',
    });
    expect(numbers.press(9)).toEqual({ ok: false, message: 'There is no button [9].' });
  });

  it('tells two buttons with the same label apart by their order', () => {
    const numbers = new CardButtonNumbers();
    expect(numbers.number('1', [b('Open', 'p'), b('Open', 'q')])).toEqual([1, 2]);
    expect(numbers.number('1', [b('Open', 'r'), b('Open', 's')])).toEqual([1, 2]);
    expect(numbers.press(2)).toEqual({ ok: true, actionId: 's' });
  });
});
