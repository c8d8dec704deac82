/**
 * A short-lived cache of what a linked source-host account may do with a tool (push access to its
 * source repository), so permission checks do not call the source host on every command. Cleared
 * for a user when they link or unlink.
 */
import type { Redis } from 'ioredis';
import { ownerKey, type VaultOwner } from './vault';

/** Cached permission results in Redis. */
export class PushAccessCache<T> {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  /** A cached result, if still fresh. */
  async get(owner: VaultOwner, tool: string): Promise<T | undefined> {
    const raw = await this.redis.get(this.key(owner, tool));
    return raw ? (JSON.parse(raw) as T) : undefined;
  }

  /** Caches a result for the configured time. */
  async set(owner: VaultOwner, tool: string, value: T): Promise<void> {
    if (this.ttlSeconds <= 0) return;
    await this.redis.set(this.key(owner, tool), JSON.stringify(value), 'EX', this.ttlSeconds);
  }

  /** Forgets every cached result of a user. */
  async clear(owner: VaultOwner): Promise<void> {
    const pattern = `${this.prefix}push-access:${ownerKey(owner).replace(/[*?[\]\\]/g, '\\$&')}:*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 200);
      if (keys.length) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  private key(owner: VaultOwner, tool: string): string {
    return `${this.prefix}push-access:${ownerKey(owner)}:${tool}`;
  }
}
