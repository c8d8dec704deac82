import type { Redis } from 'ioredis';
import type { BindingStore } from '../core/actions';
import { ConversationHash } from './conversation-hash';

/** Conversation → tool bindings (`/tool bind`), kept in one Redis hash. */
export class RedisBindingStore extends ConversationHash implements BindingStore {
  constructor(redis: Redis, prefix = 'dh:') {
    super(redis, prefix, 'bindings');
  }

  async set(conversationId: string, tool: string): Promise<void> {
    await this.redis.hset(this.key, conversationId, tool);
  }

  async remove(conversationId: string): Promise<string | undefined> {
    const [[, tool], [, removed]] = (await this.redis
      .multi()
      .hget(this.key, conversationId)
      .hdel(this.key, conversationId)
      .exec()) as [[Error | null, string | null], [Error | null, number]];
    return removed ? (tool ?? undefined) : undefined;
  }
}
