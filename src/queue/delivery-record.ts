/**
 * The posted-record of one post a queued job makes (an announcement to one conversation): `posting`
 * (when the first attempt started) is written before the platform is called, `posted` (the message
 * handle) right after the platform accepted. A retry reads both before it posts anything.
 */
import type { Redis } from 'ioredis';
import type { MessageHandle } from '../core/command';

/** What a retry finds before it posts. */
export type DeliveryState =
  /** No earlier attempt: post. */
  | { kind: 'fresh' }
  /** An earlier attempt started at `since` (ms) and its answer was never recorded: look before posting. */
  | { kind: 'interrupted'; since: number }
  /** Already posted: do nothing. */
  | { kind: 'posted'; handle: MessageHandle | undefined };

/** Kept longer than a deliver job can live (its failed copy is kept 7 days). */
const TTL_SECONDS = 8 * 86_400;

/** Posted-records in Redis, one hash per delivery key. */
export class DeliveryRecords {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private keyOf(key: string): string {
    return `${this.prefix}delivery:${key}`;
  }

  /**
   * Marks an attempt as started and tells what earlier attempts left: atomically, so two workers
   * that both pick up a delivery (one of them stalled) agree on when the first attempt started.
   */
  async begin(key: string, now = Date.now()): Promise<DeliveryState> {
    const redisKey = this.keyOf(key);
    const result = await this.redis
      .multi()
      .hsetnx(redisKey, 'posting', String(now))
      .hmget(redisKey, 'posting', 'posted')
      .expire(redisKey, TTL_SECONDS)
      .exec();
    if (!result) throw new Error('the delivery record transaction was aborted');
    const created = (result[0] as [Error | null, number])[1];
    const [since, posted] = (result[1] as [Error | null, (string | null)[]])[1];
    if (posted !== null && posted !== undefined) {
      return { kind: 'posted', handle: posted ? (JSON.parse(posted) as MessageHandle) : undefined };
    }
    if (created === 1) return { kind: 'fresh' };
    return { kind: 'interrupted', since: Number(since) };
  }

  /** Records that the platform accepted the post (written right after its answer). */
  async posted(key: string, handle: unknown): Promise<void> {
    const redisKey = this.keyOf(key);
    await this.redis
      .multi()
      .hset(redisKey, 'posted', isHandle(handle) ? JSON.stringify(handle) : '')
      .expire(redisKey, TTL_SECONDS)
      .exec();
  }
}

function isHandle(value: unknown): value is MessageHandle {
  return typeof value === 'object' && value !== null && 'conversationId' in value && 'ref' in value;
}
