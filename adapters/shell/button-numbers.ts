/**
 * The numbers of buttons in the terminal chat. A card keeps its numbers across updates: a button with
 * the same label on a new version of the card keeps its number (a deployment's Cancel stays `[3]` while
 * the card is edited), a new button gets the next free number, and the number of a button that left
 * the card says so when typed instead of pressing something else.
 */
import type { CardButton } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';

interface Assigned {
  actionId: string;
  message: string;
  label: string;
}

/** What typing a number means. */
export type Press = { ok: true; actionId: string } | { ok: false; message: string };

/** Button numbers by card (message) and label. */
export class CardButtonNumbers {
  private next = 1;
  /** Live numbers: number → the button it presses. */
  private readonly live = new Map<number, Assigned>();
  /** Numbers of buttons a card no longer shows, for a clear message when typed. */
  private readonly retired = new Map<number, Assigned>();
  /** Per message: the button key (label and its occurrence) → its number. */
  private readonly byMessage = new Map<string, Map<string, number>>();

  /** Numbers for `buttons` of one version of `message`, in order. */
  number(message: string, buttons: readonly CardButton[]): number[] {
    const known = this.byMessage.get(message) ?? new Map<string, number>();
    const seen = new Map<string, number>();
    const kept = new Set<number>();
    const numbers = buttons.map((button) => {
      const count = (seen.get(button.label) ?? 0) + 1;
      seen.set(button.label, count);
      const key = `${button.label}\u0000${count}`;
      let number = known.get(key);
      if (number === undefined) {
        number = this.next++;
        known.set(key, number);
      }
      kept.add(number);
      const assigned = { actionId: button.actionId, message, label: button.label };
      this.live.set(number, assigned);
      this.retired.delete(number);
      return number;
    });
    for (const [key, number] of known) {
      if (kept.has(number)) continue;
      const gone = this.live.get(number);
      if (gone) this.retired.set(number, gone);
      this.live.delete(number);
      known.delete(key);
    }
    this.byMessage.set(message, known);
    return numbers;
  }

  /**
   * The action of the button labelled `label` (any case) on card `message`, or why there is none.
   * With two buttons of that label, the first.
   */
  pressLabel(message: string, label: string, say: Translator = translator('en')): Press {
    const known = this.byMessage.get(message);
    if (!known) return { ok: false, message: say.t('shell-press-no-card', message) };
    const wanted = label.toLowerCase();
    const labels: string[] = [];
    for (const number of known.values()) {
      const live = this.live.get(number);
      if (!live) continue;
      if (live.label.toLowerCase() === wanted) return { ok: true, actionId: live.actionId };
      labels.push(live.label);
    }
    const has = labels.length
      ? say.t('shell-press-its-buttons', labels.join(', '))
      : say.t('shell-press-no-buttons-now');
    return { ok: false, message: say.t('shell-press-no-label', message, label.slice(0, 60), has) };
  }

  /** The action of the button with `number`, or why there is none. */
  press(number: number, say: Translator = translator('en')): Press {
    const live = this.live.get(number);
    if (live) return { ok: true, actionId: live.actionId };
    const gone = this.retired.get(number);
    if (gone) {
      return { ok: false, message: say.t('shell-press-button-gone', number, gone.label, gone.message) };
    }
    return { ok: false, message: say.t('shell-press-no-button', number) };
  }
}
