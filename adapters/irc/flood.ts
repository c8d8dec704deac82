/**
 * Outgoing flood control: a token bucket per target (a burst of `burst` lines, then one line per
 * `intervalMs`) and one over all targets (twice the burst, the same pace), so neither one channel nor
 * the connection as a whole goes past what an IRC server tolerates (fakelag, "Excess Flood").
 */

interface Bucket {
  tokens: number;
  at: number;
}

/** The pacing of outgoing lines. */
export interface FloodSettings {
  burst: number;
  intervalMs: number;
}

/** Token buckets; `take` resolves when a line to `target` may go. */
export class FloodGate {
  private readonly targets = new Map<string, Bucket>();
  private readonly overall: Bucket;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly settings: FloodSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.overall = { tokens: this.overallBurst, at: now() };
  }

  private get overallBurst(): number {
    return this.settings.burst * 2;
  }

  private refill(bucket: Bucket, capacity: number): void {
    const now = this.now();
    const gained = (now - bucket.at) / this.settings.intervalMs;
    bucket.tokens = Math.min(capacity, bucket.tokens + gained);
    bucket.at = now;
  }

  /** Waits for a token of `target` and of the connection, then spends both (callers go in order). */
  take(target: string): Promise<void> {
    const next = this.chain.then(() => this.wait(target.toLowerCase()));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async wait(target: string): Promise<void> {
    let bucket = this.targets.get(target);
    if (!bucket) {
      bucket = { tokens: this.settings.burst, at: this.now() };
      this.targets.set(target, bucket);
    }
    for (;;) {
      this.refill(bucket, this.settings.burst);
      this.refill(this.overall, this.overallBurst);
      const short = Math.max(1 - bucket.tokens, 1 - this.overall.tokens);
      if (short <= 0) break;
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(short * this.settings.intervalMs)));
    }
    bucket.tokens -= 1;
    this.overall.tokens -= 1;
  }
}
