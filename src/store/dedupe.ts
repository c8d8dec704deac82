import type { Redis } from 'ioredis';
import { StoreUnavailableError } from '../core/errors';

/**
 * At-most-once claims in Redis: platforms re-deliver (retried webhooks, an update id sent
 * again, gateway replays, double clicks), and a side effect must not run twice.
 *
 * Give it the request-path connection (`RedisHandle.requests` in `src/store/redis.ts`): with Redis away a claim then
 * fails at once instead of waiting in a queue, and the request is refused rather than run later.
 */
export class DeliveryDeduper {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
    /** How long a delivery id is remembered. A platform's last retry comes minutes after the first try. */
    private readonly ttlSeconds = 24 * 3600,
  ) {}

  /**
   * True the first time `key` is claimed (within the TTL), false for every repeat. Throws a
   * {@link StoreUnavailableError} when Redis cannot record the claim: the caller tells the user
   * nothing was done, and runs nothing.
   */
  async claim(key: string): Promise<boolean> {
    let result: string | null;
    try {
      result = await this.redis.set(`${this.prefix}seen:${key}`, '1', 'EX', this.ttlSeconds, 'NX');
    } catch (error) {
      throw new StoreUnavailableError({ cause: error });
    }
    return result === 'OK';
  }

  /** Forgets a claim (the work it guarded showed nothing), so the key may be claimed again. */
  async release(key: string): Promise<void> {
    try {
      await this.redis.del(`${this.prefix}seen:${key}`);
    } catch (error) {
      throw new StoreUnavailableError({ cause: error });
    }
  }
}
