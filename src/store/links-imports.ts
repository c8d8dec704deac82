/**
 * Conversations that follow source imports (`/source import follow owner/repo`), to which the
 * `repository_import` webhook is announced, and the delivery ids already announced (a redelivered
 * webhook is announced once).
 */
import type { Redis } from 'ioredis';

/** Import followers in Redis: one set of conversation ids per repository (full name, lower case). */
export class ImportFollowers {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
  ) {}

  /** Adds a conversation to a repository's followers. */
  async follow(repo: string, conversationId: string): Promise<void> {
    await this.redis.sadd(this.key(repo), conversationId);
  }

  /** Removes a conversation; true when it was following. */
  async unfollow(repo: string, conversationId: string): Promise<boolean> {
    return (await this.redis.srem(this.key(repo), conversationId)) > 0;
  }

  /** The conversations following a repository. */
  async forRepo(repo: string): Promise<string[]> {
    return (await this.redis.smembers(this.key(repo))).sort();
  }

  /** Claims a webhook delivery id; false when it was claimed before (kept a week). */
  async claimDelivery(id: string): Promise<boolean> {
    return (
      (await this.redis.set(`${this.prefix}webhook-delivery:${id}`, '1', 'EX', 7 * 86_400, 'NX')) === 'OK'
    );
  }

  private key(repo: string): string {
    return `${this.prefix}import-followers:${repo.toLowerCase()}`;
  }
}
