import type { Redis } from 'ioredis';

/**
 * At-most-once claims in Redis: platforms re-deliver (Slack retries, Telegram's same `update_id`,
 * Discord's gateway replays, double clicks), and a side effect must not run twice.
 */
export class DeliveryDeduper {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
    /** How long a delivery id is remembered. Slack's last retry comes ~5 min after the first try. */
    private readonly ttlSeconds = 24 * 3600,
  ) {}

  /** True the first time `key` is claimed (within the TTL), false for every repeat. */
  async claim(key: string): Promise<boolean> {
    const result = await this.redis.set(`${this.prefix}seen:${key}`, '1', 'EX', this.ttlSeconds, 'NX');
    return result === 'OK';
  }
}
