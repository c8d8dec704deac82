import type { Redis } from 'ioredis';

/** A value per conversation, kept in one Redis hash (`<prefix><name>`, field: the conversation id). */
export class ConversationHash {
  /** The hash's key. */
  protected readonly key: string;

  constructor(
    protected readonly redis: Redis,
    prefix: string,
    name: string,
  ) {
    this.key = `${prefix}${name}`;
  }

  /** The conversation's value, if it has one. */
  async get(conversationId: string): Promise<string | undefined> {
    return (await this.redis.hget(this.key, conversationId)) ?? undefined;
  }
}
