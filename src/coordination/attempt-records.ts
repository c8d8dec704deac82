/**
 * Attempt records: one Redis hash per key, whose `start` field is written by the first attempt
 * only (its time, ms) and whose `end` field is written when an attempt's work is done. A later
 * attempt reads both before it acts: nothing (fresh), a start without an end (an earlier attempt
 * was interrupted, and when it began), or an end (done already). Delivery records (a post) and
 * effect records (a side-effect command) are the two uses, each with its own field names, key
 * segment and expiry.
 *
 * Each step is plain commands on one key, sent together (one round trip), so any Redis topology
 * holds it; no MULTI (ioredis builds one as a pipeline that copies every script defined on the
 * connection, BullMQ's, onto itself). The start is kept by HSETNX alone, so two attempts that begin
 * at once agree on it without a transaction.
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
   * Marks an attempt as started and tells what earlier attempts left: only the first HSETNX writes
   * the start, so two workers that both pick up the same work (one of them stalled) agree on when
   * the first attempt started.
   */
  async begin(key: string, now = Date.now()): Promise<AttemptState> {
    const { start, end, ttlSeconds } = this.kind;
    const record = this.keyOf(key);
    const [created, [since, ended]] = await Promise.all([
      this.redis.hsetnx(record, start, String(now)),
      this.redis.hmget(record, start, end),
      this.redis.expire(record, ttlSeconds),
    ]);
    if (ended !== null && ended !== undefined) return { kind: 'ended', value: ended };
    if (created === 1) return { kind: 'fresh' };
    return { kind: 'interrupted', since: Number(since) };
  }

  /**
   * Records that the work is done, with `value`. The record keeps the expiry its attempt's
   * {@link begin} gave it, which no attempt outlasts.
   */
  async end(key: string, value: string): Promise<void> {
    await this.redis.hset(this.keyOf(key), this.kind.end, value);
  }

  /** Removes a record whose work was never done (no end written): as if no attempt had begun. */
  async withdraw(key: string): Promise<void> {
    await this.redis.eval(WITHDRAW, 1, this.keyOf(key), this.kind.end);
  }
}
