/**
 * Buttons as numbered choices, kept in Redis so any process can number a card's buttons and the one
 * holding the connection can press them: numbers count up per conversation (`[7] Approve`), each bound
 * to its card's button for a week; `!7` presses it, a number never given or expired says so.
 */
import type { Redis } from 'ioredis';
import type { CardButton } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';

const KEEP_SECONDS = 7 * 24 * 3600;

/** What typing a number means. */
export type Press = { ok: true; actionId: string; card: string } | { ok: false; message: string };

/** Button numbers by conversation. */
export class IrcButtons {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(conversationId: string): string {
    return `${this.prefix}irc:buttons:${conversationId}`;
  }

  /** Numbers for the buttons of card `card` in `conversationId`, in order. */
  async number(conversationId: string, card: string, buttons: readonly CardButton[]): Promise<number[]> {
    if (buttons.length === 0) return [];
    const key = this.key(conversationId);
    const last = await this.redis.hincrby(key, 'next', buttons.length);
    const numbers = buttons.map((_, i) => last - buttons.length + 1 + i);
    const fields = buttons.flatMap((button, i) => [
      String(numbers[i]),
      JSON.stringify({ actionId: button.actionId, label: button.label, card }),
    ]);
    await this.redis
      .multi()
      .hset(key, ...fields)
      .expire(key, KEEP_SECONDS)
      .exec();
    return numbers;
  }

  /** The button `number` of `conversationId`, or why there is none. */
  async press(conversationId: string, number: number, say: Translator = translator('en')): Promise<Press> {
    const stored = await this.redis.hget(this.key(conversationId), String(number));
    if (!stored) return { ok: false, message: say.t('irc-press-no-button', number) };
    const { actionId, card } = JSON.parse(stored) as { actionId: string; card: string };
    return { ok: true, actionId, card };
  }
}
