import type { Redis } from 'ioredis';

/** Where a tail resumes after a reconnect or a restart. */
export interface TailCursor {
  /** Lines received so far (build logs replay from the start: skip this many). */
  lines: number;
  /** Timestamp of the last job log line, and how many lines carried exactly that timestamp. */
  lastTime?: string;
  atLastTime?: number;
}

/**
 * Base key of a tail's state. Its keys are written together (one MULTI), so they share a hash tag:
 * one Redis Cluster slot per tail.
 */
export function tailKey(prefix: string, jobId: string): string {
  return `${prefix}tail:{${jobId}}`;
}

/**
 * A tail's state in Redis, so that a tail taken over by another worker (after a crash) continues the
 * same transcript: the lines so far (a list, in arrival order), the resume cursor, and the stop flag.
 */
export class TailState {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  /** Appends lines to the transcript and moves the cursor, atomically. */
  async append(lines: readonly string[], cursor: TailCursor): Promise<void> {
    if (lines.length === 0) return;
    await this.redis
      .multi()
      .rpush(`${this.key}:lines`, ...lines)
      .set(`${this.key}:cursor`, JSON.stringify(cursor))
      .expire(`${this.key}:lines`, 86_400)
      .expire(`${this.key}:cursor`, 86_400)
      .exec();
  }

  async cursor(): Promise<TailCursor> {
    const raw = await this.redis.get(`${this.key}:cursor`);
    return raw ? (JSON.parse(raw) as TailCursor) : { lines: 0 };
  }

  /** The whole transcript. */
  async transcript(): Promise<string[]> {
    return this.redis.lrange(`${this.key}:lines`, 0, -1);
  }

  /** The last `n` lines. */
  async last(n: number): Promise<string[]> {
    return this.redis.lrange(`${this.key}:lines`, -n, -1);
  }

  async requestStop(): Promise<void> {
    await this.redis.set(`${this.key}:stop`, '1', 'EX', 86_400);
  }

  async stopRequested(): Promise<boolean> {
    return (await this.redis.exists(`${this.key}:stop`)) === 1;
  }

  /** Forgets everything once the transcript was delivered (the keys share a slot, see {@link tailKey}). */
  async clear(): Promise<void> {
    await this.redis.del(`${this.key}:lines`, `${this.key}:cursor`, `${this.key}:stop`);
  }
}
