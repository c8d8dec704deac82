/**
 * The chat platforms' documented send limits, enforced the way their own rate-limit headers describe
 * a bucket: a window of `windowMs` opens at the first request after the previous one closed, and holds
 * at most `limit` requests. A window is treated as closed `toleranceMs` early, so a compliant client
 * that waits exactly the window out is not refused over a few milliseconds of scheduling noise.
 */

/** One limit that a request counts against. */
export interface Limit {
  /** What it limits, e.g. `discord:channel:123`. */
  key: string;
  limit: number;
  windowMs: number;
}

/** Decision for one request. */
export type Verdict =
  | { allowed: true }
  | { allowed: false; key: string; retryAfterMs: number; global: boolean };

/** Anchored fixed windows per key. */
export class WindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly toleranceMs = 20) {}

  /** Checks every limit; the request is counted against all of them only when all allow it. */
  take(limits: readonly Limit[], now = Date.now()): Verdict {
    for (const limit of limits) {
      const window = this.current(limit, now);
      if (window.count >= limit.limit) {
        return {
          allowed: false,
          key: limit.key,
          retryAfterMs: Math.max(1, window.start + limit.windowMs - now),
          global: limit.key.endsWith(':global'),
        };
      }
    }
    for (const limit of limits) this.current(limit, now).count += 1;
    return { allowed: true };
  }

  /** Requests left and ms until reset of a key's window (for rate-limit headers). */
  state(limit: Limit, now = Date.now()): { remaining: number; resetAfterMs: number } {
    const window = this.current(limit, now);
    return {
      remaining: Math.max(0, limit.limit - window.count),
      resetAfterMs: window.start + limit.windowMs - now,
    };
  }

  private current(limit: Limit, now: number) {
    let window = this.windows.get(limit.key);
    if (!window || now >= window.start + limit.windowMs - this.toleranceMs) {
      window = { start: now, count: 0 };
      this.windows.set(limit.key, window);
    }
    return window;
  }
}

/**
 * The least time in which `messages` requests can all be sent under a limit of `limit` per `windowMs`
 * (the first window starts with the first request; the last request is sent when the last window opens).
 */
export function lowerBoundMs(messages: number, limit: number, windowMs: number): number {
  return messages <= 0 ? 0 : (Math.ceil(messages / limit) - 1) * windowMs;
}
