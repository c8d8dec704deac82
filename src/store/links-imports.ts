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

  /**
   * Adds a conversation to a repository's followers. The two sets are in different Cluster slots
   * and are written side by side (each write idempotent; a repeat of the command mends either).
   */
  async follow(repo: string, conversationId: string): Promise<void> {
    await Promise.all([
      this.redis.sadd(this.key(repo), conversationId),
      this.redis.sadd(this.conversationKey(conversationId), repo.toLowerCase()),
    ]);
  }

  /** Removes a conversation; true when it was following. */
  async unfollow(repo: string, conversationId: string): Promise<boolean> {
    const [removed] = await Promise.all([
      this.redis.srem(this.key(repo), conversationId),
      this.redis.srem(this.conversationKey(conversationId), repo.toLowerCase()),
    ]);
    return removed > 0;
  }

  /** The repositories (lower case) a conversation follows the imports of. */
  async forConversation(conversationId: string): Promise<string[]> {
    return (await this.redis.smembers(this.conversationKey(conversationId))).sort();
  }

  /** The conversations following a repository. */
  async forRepo(repo: string): Promise<string[]> {
    return (await this.redis.smembers(this.key(repo))).sort();
  }

  /**
   * Removes every follower of a repository (its import ended and was announced): a following is for
   * one import's end, so a signed body replayed after the delivery record expired reaches no one.
   */
  async dropRepo(repo: string): Promise<void> {
    const conversations = await this.redis.smembers(this.key(repo));
    const multi = this.redis.multi().del(this.key(repo));
    for (const conversationId of conversations) {
      multi.srem(this.conversationKey(conversationId), repo.toLowerCase());
    }
    await multi.exec();
  }

  /** Claims a webhook delivery id; false when it was claimed before (kept a week). */
  async claimDelivery(id: string): Promise<boolean> {
    return (
      (await this.redis.set(`${this.prefix}webhook-delivery:${id}`, '1', 'EX', 7 * 86_400, 'NX')) === 'OK'
    );
  }

  private conversationKey(conversationId: string): string {
    return `${this.prefix}import-follows:${conversationId}`;
  }

  private key(repo: string): string {
    return `${this.prefix}import-followers:${repo.toLowerCase()}`;
  }
}
