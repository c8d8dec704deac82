/**
 * The effect records of side-effect commands in Redis: an attempt record per delivery key
 * (`effect-record:<key>`), `claimed` (when the first attempt started, ms) written before the command
 * runs and `outcome` after it (see `attempt-records.ts`; the rules that read them are
 * `src/core/effects.ts`).
 */
import type { Redis } from 'ioredis';
import type { EffectLedger, EffectState } from '../core/effects';
import { AttemptRecords } from './attempt-records';

/** {@link EffectLedger} on Redis. */
export class RedisEffectLedger implements EffectLedger {
  private readonly records: AttemptRecords;

  constructor(redis: Redis, prefix: string) {
    this.records = new AttemptRecords(redis, prefix, {
      segment: 'effect-record',
      start: 'claimed',
      end: 'outcome',
      // Kept longer than a command job can be retried (its failed copy is kept a day).
      ttlSeconds: 2 * 86_400,
    });
  }

  async claim(key: string, now = Date.now()): Promise<EffectState> {
    const state = await this.records.begin(key, now);
    return state.kind === 'ended' ? { kind: 'finished', outcome: state.value } : state;
  }

  async finish(key: string, outcome: string): Promise<void> {
    await this.records.end(key, outcome);
  }

  async withdraw(key: string): Promise<void> {
    await this.records.withdraw(key);
  }
}
