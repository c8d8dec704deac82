/**
 * The effect records of side-effect commands in Redis: one hash per delivery key under the key
 * prefix, `claimed` (when the first attempt started, ms) written before the command runs and
 * `outcome` after it. One script per step (not a MULTI: ioredis builds one as a pipeline that copies
 * every script defined on the connection onto itself), one key each, so it works on a Cluster too.
 */
import type { Redis } from 'ioredis';
import type { EffectLedger, EffectState } from '../core/effects';

/** Kept longer than a command job can be retried (its failed copy is kept a day). */
const TTL_SECONDS = 2 * 86_400;

/**
 * Claims the record (`claimed` is set by the first attempt only), renews its expiry and returns
 * `[created, claimed, outcome]` (a missing field reads as Lua's false, answered as nil).
 */
const CLAIM = `local created = redis.call('HSETNX', KEYS[1], 'claimed', ARGV[1])
local fields = redis.call('HMGET', KEYS[1], 'claimed', 'outcome')
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {created, fields[1], fields[2]}`;

/** Writes the outcome and renews the expiry. */
const FINISH = `redis.call('HSET', KEYS[1], 'outcome', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1`;

/** {@link EffectLedger} on Redis. */
export class RedisEffectLedger implements EffectLedger {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private keyOf(key: string): string {
    return `${this.prefix}effect-record:${key}`;
  }

  async claim(key: string, now = Date.now()): Promise<EffectState> {
    const [created, claimed, outcome] = (await this.redis.eval(
      CLAIM,
      1,
      this.keyOf(key),
      String(now),
      TTL_SECONDS,
    )) as [number, string | null, string | null];
    if (outcome !== null && outcome !== undefined) return { kind: 'finished', outcome };
    if (created === 1) return { kind: 'fresh' };
    return { kind: 'interrupted', since: Number(claimed) };
  }

  async finish(key: string, outcome: string): Promise<void> {
    await this.redis.eval(FINISH, 1, this.keyOf(key), outcome, TTL_SECONDS);
  }
}
