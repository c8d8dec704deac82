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

/**
 * Starts an attempt (`posting` is set by the first one only), renews the expiry and returns
 * `[created, posting, posted]` (a missing field reads as Lua's false, answered as nil).
 * One script, not a MULTI: ioredis builds a MULTI as a pipeline that copies every script defined on
 * the connection (BullMQ's) onto itself, a queued command's largest allocation in a worker.
 */
const BEGIN = `local created = redis.call('HSETNX', KEYS[1], 'posting', ARGV[1])
local fields = redis.call('HMGET', KEYS[1], 'posting', 'posted')
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {created, fields[1], fields[2]}`;

/** Records the handle of an accepted post and renews the expiry. */
const POSTED = `redis.call('HSET', KEYS[1], 'posted', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1`;

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
    const [created, since, posted] = (await this.redis.eval(
      BEGIN,
      1,
      this.keyOf(key),
      String(now),
      TTL_SECONDS,
    )) as [number, string, string | null];
    if (posted !== null && posted !== undefined) {
      return { kind: 'posted', handle: posted ? (JSON.parse(posted) as MessageHandle) : undefined };
    }
    if (created === 1) return { kind: 'fresh' };
    return { kind: 'interrupted', since: Number(since) };
  }

  /** Records that the platform accepted the post (written right after its answer). */
  async posted(key: string, handle: unknown): Promise<void> {
    await this.redis.eval(
      POSTED,
      1,
      this.keyOf(key),
      isHandle(handle) ? JSON.stringify(handle) : '',
      TTL_SECONDS,
    );
  }
}

function isHandle(value: unknown): value is MessageHandle {
  return typeof value === 'object' && value !== null && 'conversationId' in value && 'ref' in value;
}
