import type { Redis } from 'ioredis';
import type { BindingStore } from '../core/actions';

/** Conversation → tool bindings (`/tool bind`), kept in one Redis hash. */
export class RedisBindingStore implements BindingStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
  ) {}

  async get(conversationId: string): Promise<string | undefined> {
    return (await this.redis.hget(`${this.prefix}bindings`, conversationId)) ?? undefined;
  }

  async set(conversationId: string, tool: string): Promise<void> {
    await this.redis.hset(`${this.prefix}bindings`, conversationId, tool);
  }

  async remove(conversationId: string): Promise<string | undefined> {
    const key = `${this.prefix}bindings`;
    const [[, tool], [, removed]] = (await this.redis
      .multi()
      .hget(key, conversationId)
      .hdel(key, conversationId)
      .exec()) as [[Error | null, string | null], [Error | null, number]];
    return removed ? (tool ?? undefined) : undefined;
  }
}
