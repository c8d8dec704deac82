/**
 * A short-lived cache of what a linked source-host account may do with a tool (push access to its
 * source repository), so permission checks do not call the source host on every command. Cleared
 * for a user when they link or unlink.
 */
import type { Redis } from 'ioredis';
import { ownerKey, type VaultOwner } from './vault';

/**
 * Cached permission results in Redis: one hash per user (tool → result and when it goes stale), so
 * forgetting a user's results is one DEL of one key — on a Redis Cluster too, where a SCAN would
 * reach one node only. The hash expires with its newest entry.
 */
export class PushAccessCache<T> {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  /** A cached result, if still fresh. */
  async get(owner: VaultOwner, tool: string): Promise<T | undefined> {
    const raw = await this.redis.hget(this.key(owner), tool);
    if (!raw) return undefined;
    const entry = JSON.parse(raw) as { until: number; value: T };
    return entry.until > Date.now() ? entry.value : undefined;
  }

  /** Caches a result for the configured time. */
  async set(owner: VaultOwner, tool: string, value: T): Promise<void> {
    if (this.ttlSeconds <= 0) return;
    const entry = { until: Date.now() + this.ttlSeconds * 1000, value };
    await this.redis
      .multi()
      .hset(this.key(owner), tool, JSON.stringify(entry))
      .expire(this.key(owner), this.ttlSeconds)
      .exec();
  }

  /** Forgets every cached result of a user. */
  async clear(owner: VaultOwner): Promise<void> {
    await this.redis.del(this.key(owner));
  }

  private key(owner: VaultOwner): string {
    return `${this.prefix}push-access:${ownerKey(owner)}`;
  }
}
