import type { Redis } from 'ioredis';
import type { LanguageStore } from '../core/languages';

/**
 * The `/language` settings in one Redis hash: `user:<platform:workspace:user>` and
 * `conversation:<conversation id>` → language code, so an invocation reads both with one HMGET.
 */
export class RedisLanguageStore implements LanguageStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
  ) {}

  private get key(): string {
    return `${this.prefix}languages`;
  }

  async ofUser(userKey: string): Promise<string | undefined> {
    return (await this.redis.hget(this.key, `user:${userKey}`)) ?? undefined;
  }

  async ofConversation(conversationId: string): Promise<string | undefined> {
    return (await this.redis.hget(this.key, `conversation:${conversationId}`)) ?? undefined;
  }

  async ofBoth(userKey: string, conversationId: string): Promise<[string | undefined, string | undefined]> {
    const [user, conversation] = await this.redis.hmget(
      this.key,
      `user:${userKey}`,
      `conversation:${conversationId}`,
    );
    return [user ?? undefined, conversation ?? undefined];
  }

  async setUser(userKey: string, language: string | undefined): Promise<void> {
    await this.write(`user:${userKey}`, language);
  }

  async setConversation(conversationId: string, language: string | undefined): Promise<void> {
    await this.write(`conversation:${conversationId}`, language);
  }

  private async write(field: string, value: string | undefined): Promise<void> {
    if (value === undefined) await this.redis.hdel(this.key, field);
    else await this.redis.hset(this.key, field, value);
  }
}
