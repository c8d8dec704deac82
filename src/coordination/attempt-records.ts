/**
 * Attempt records: one Redis hash per key, whose `start` field is written by the first attempt
 * only (its time, ms) and whose `end` field is written when an attempt's work is done. A later
 * attempt reads both before it acts: nothing (fresh), a start without an end (an earlier attempt
 * was interrupted, and when it began), or an end (done already). Delivery records (a post) and
 * effect records (a side-effect command) are the two uses, each with its own field names, key
 * segment and expiry.
 *
 * One script per step, not a MULTI: ioredis builds a MULTI as a pipeline that copies every script
 * defined on the connection (BullMQ's) onto itself. One key per script, so any Redis topology holds it.
 */
import type { Redis } from 'ioredis';

/** What an attempt finds before it acts. */
export type AttemptState =
  /** No earlier attempt. */
  | { kind: 'fresh' }
  /** An earlier attempt started at `since` (ms) and never wrote its end. */
  | { kind: 'interrupted'; since: number }
  /** An earlier attempt finished; `value` is what it wrote. */
  | { kind: 'ended'; value: string };

/** The shape of one use: its key segment, field names and expiry. */
export interface AttemptRecordKind {
  /** The key segment after the prefix (`delivery`, `effect-record`). */
  segment: string;
  /** The field the first attempt writes its start time to. */
  start: string;
  /** The field written when the work is done. */
  end: string;
  /** How long a record is kept after its last write. */
  ttlSeconds: number;
}

/**
 * Starts an attempt (`KEYS[1]` field `ARGV[3]` set by the first one only), renews the expiry and
 * returns `[created, start, end]` (a missing field reads as Lua's false, answered as nil).
 */
const BEGIN = `local created = redis.call('HSETNX', KEYS[1], ARGV[3], ARGV[1])
local fields = redis.call('HMGET', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {created, fields[1], fields[2]}`;

/** Writes the end field `ARGV[3]` and renews the expiry. */
const END = `redis.call('HSET', KEYS[1], ARGV[3], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1`;

/** Deletes the record unless its end field `ARGV[1]` is written. */
const WITHDRAW = `if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then redis.call('DEL', KEYS[1]) end
return 1`;

/** Attempt records of one kind in Redis. */
export class AttemptRecords {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly kind: AttemptRecordKind,
  ) {}

  /** The Redis key of a record. */
  keyOf(key: string): string {
    return `${this.prefix}${this.kind.segment}:${key}`;
  }

  /**
   * Marks an attempt as started and tells what earlier attempts left: atomically, so two workers
   * that both pick up the same work (one of them stalled) agree on when the first attempt started.
   */
  async begin(key: string, now = Date.now()): Promise<AttemptState> {
    const { start, end, ttlSeconds } = this.kind;
    const [created, since, ended] = (await this.redis.eval(
      BEGIN,
      1,
      this.keyOf(key),
      String(now),
      ttlSeconds,
      start,
      end,
    )) as [number, string | null, string | null];
    if (ended !== null && ended !== undefined) return { kind: 'ended', value: ended };
    if (created === 1) return { kind: 'fresh' };
    return { kind: 'interrupted', since: Number(since) };
  }

  /** Records that the work is done, with `value`. */
  async end(key: string, value: string): Promise<void> {
    const { end, ttlSeconds } = this.kind;
    await this.redis.eval(END, 1, this.keyOf(key), value, ttlSeconds, end);
  }

  /** Removes a record whose work was never done (no end written): as if no attempt had begun. */
  async withdraw(key: string): Promise<void> {
    await this.redis.eval(WITHDRAW, 1, this.keyOf(key), this.kind.end);
  }
}
