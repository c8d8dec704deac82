import type { Redis } from 'ioredis';
import type { TimeZoneStore } from '../core/times';
import { ConversationHash } from './conversation-hash';

/** Conversation → time zone (`/timezone`), kept in one Redis hash. */
export class RedisTimeZoneStore extends ConversationHash implements TimeZoneStore {
  constructor(redis: Redis, prefix = 'dh:') {
    super(redis, prefix, 'timezones');
  }

  async set(conversationId: string, zone: string | undefined): Promise<void> {
    if (zone === undefined) await this.redis.hdel(this.key, conversationId);
    else await this.redis.hset(this.key, conversationId, zone);
  }
}
