/**
 * The delay before the n-th poll of a watched resource (n from 0): quick at first — deployments and
 * builds often fail within seconds on a bad config or ref, and a fast first answer is what the person
 * who typed `/deploy` is waiting for — then growing by half each time up to a ceiling, because a healthy
 * build takes minutes and polling it every second would only load the platform. With the defaults
 * (1 s, ×1.5, 15 s) the first minute costs 11 polls and each further minute 4.
 */
export function pollDelayMs(attempt: number, baseMs = 1000, maxMs = 15_000, factor = 1.5): number {
  return Math.min(maxMs, Math.round(baseMs * factor ** Math.max(0, attempt)));
}
