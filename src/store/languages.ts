import type { Redis } from 'ioredis';
import type { LanguageStore } from '../core/languages';

/** The `/language` settings: chat user → language and conversation → language, one Redis hash each. */
export class RedisLanguageStore implements LanguageStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
  ) {}

  async ofUser(userKey: string): Promise<string | undefined> {
    return (await this.redis.hget(`${this.prefix}languages:users`, userKey)) ?? undefined;
  }

  async ofConversation(conversationId: string): Promise<string | undefined> {
    return (await this.redis.hget(`${this.prefix}languages:conversations`, conversationId)) ?? undefined;
  }

  async setUser(userKey: string, language: string | undefined): Promise<void> {
    await this.write(`${this.prefix}languages:users`, userKey, language);
  }

  async setConversation(conversationId: string, language: string | undefined): Promise<void> {
    await this.write(`${this.prefix}languages:conversations`, conversationId, language);
  }

  private async write(key: string, field: string, value: string | undefined): Promise<void> {
    if (value === undefined) await this.redis.hdel(key, field);
    else await this.redis.hset(key, field, value);
  }
}
