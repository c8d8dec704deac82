/**
 * Double-click suppression, decided once for every platform: presses of the same button on the same
 * message by the same person within {@link CLICK_WINDOW_SECONDS} run once. Adapters only say who
 * pressed what where; the window and the key are the core's.
 */
import type { Platform } from './conversation';

/** Presses of one button by one person within this many seconds count as one (every platform). */
export const CLICK_WINDOW_SECONDS = 5;

/**
 * At-most-once claims remembered for a number of seconds (the host's `claims(seconds)`, see
 * `src/core/host.ts`): `claim` is true the first time a key is claimed, false for every repeat.
 */
export type ClickClaims = (seconds: number) => { claim(key: string): Promise<boolean> };

/** One button press, as the adapter saw it. */
export interface Click {
  platform: Platform;
  /** The message the button is on (`channel:ts`, `chat:message`, a message id: the platform's own). */
  message: string;
  /** The button's action id (or custom id / callback data). */
  action: string;
  /** Who pressed it (platform user id). */
  user: string;
}

/** The store key of a press: the same for every repeat within the window. */
export function clickKey(click: Click): string {
  return `click:${click.platform}:${click.message}:${click.action}:${click.user}`;
}

/** Decides whether a press runs: the first one in the window does, repeats do not. */
export class ClickGuard {
  private readonly claims: { claim(key: string): Promise<boolean> };

  constructor(claims: ClickClaims) {
    this.claims = claims(CLICK_WINDOW_SECONDS);
  }

  /**
   * True for the first press of a button by a person within the window; false for a double click.
   * Throws what the claims throw (the store unavailable: the caller runs nothing and says so).
   */
  first(click: Click): Promise<boolean> {
    return this.claims.claim(clickKey(click));
  }
}
