import type { Redis } from 'ioredis';
import type { TimeZoneStore } from '../core/times';

/** Conversation → time zone (`/timezone`), kept in one Redis hash. */
export class RedisTimeZoneStore implements TimeZoneStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
  ) {}

  async get(conversationId: string): Promise<string | undefined> {
    return (await this.redis.hget(`${this.prefix}timezones`, conversationId)) ?? undefined;
  }

  async set(conversationId: string, zone: string | undefined): Promise<void> {
    if (zone === undefined) await this.redis.hdel(`${this.prefix}timezones`, conversationId);
    else await this.redis.hset(`${this.prefix}timezones`, conversationId, zone);
  }
}
