/**
 * Which action each numbered button of a card presses. Matrix has no buttons: a card shows `[1] …`,
 * and a person presses one by reacting to the card with the number's keycap, by answering the card
 * (a reply or in its thread) with `!1`, or with `!press 1` / `!1` in the room for the room's latest
 * card with buttons. The numbers are kept in Redis (posted by any process, pressed in the one that
 * syncs), per card, updated with every edit of the card.
 */
import type { KeyValueStore } from '../../src/core/host';
import type { CardButton } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import { NUMBER_KEYS } from './render';

/** How long a card's numbers are kept (its actions expire sooner on their own). */
const KEEP_MS = 7 * 24 * 3600 * 1000;

/** What pressing a number means. */
export type Press = { ok: true; actionId: string; card: string } | { ok: false; message: string };

/** The number a reaction key stands for (`2️⃣` → 2), or `undefined`. */
export function numberOfKey(key: string): number | undefined {
  const index = NUMBER_KEYS.indexOf(key);
  if (index >= 0) return index + 1;
  // Some clients send the keycap without the variation selector.
  const bare = NUMBER_KEYS.findIndex((k) => k.replace('\uFE0F', '') === key);
  return bare >= 0 ? bare + 1 : undefined;
}

/** See the module comment. */
export class CardButtons {
  constructor(private readonly store: KeyValueStore) {}

  /** Records the buttons of a card's latest version (none: the card has no buttons now). */
  async remember(roomId: string, eventId: string, buttons: readonly CardButton[]): Promise<void> {
    const value = JSON.stringify(buttons.map((b) => ({ label: b.label, actionId: b.actionId })));
    await this.store.set(`${roomId} ${eventId}`, value, { ttlMs: KEEP_MS });
    if (buttons.length > 0) await this.store.set(`latest ${roomId}`, eventId, { ttlMs: KEEP_MS });
  }

  /** The room's latest card with buttons. */
  latest(roomId: string): Promise<string | undefined> {
    return this.store.get(`latest ${roomId}`);
  }

  /** The action of button `number` on card `eventId`, or why there is none. */
  async press(
    roomId: string,
    eventId: string | undefined,
    number: number,
    say: Translator = translator('en'),
  ): Promise<Press> {
    const card = eventId ?? (await this.latest(roomId));
    if (!card) return { ok: false, message: say.t('matrix-press-no-card') };
    const stored = await this.store.get(`${roomId} ${card}`);
    if (stored === undefined) {
      return {
        ok: false,
        message: eventId ? say.t('matrix-press-unknown-message') : say.t('matrix-press-no-card'),
      };
    }
    const buttons = JSON.parse(stored) as { label: string; actionId: string }[];
    const button = buttons[number - 1];
    if (!button) {
      const has = buttons.length
        ? say.t('matrix-press-its-buttons', buttons.map((b, i) => `[${i + 1}] ${b.label}`).join(', '))
        : say.t('matrix-press-no-buttons-now');
      return { ok: false, message: say.t('matrix-press-no-button', number, has) };
    }
    return { ok: true, actionId: button.actionId, card };
  }
}
