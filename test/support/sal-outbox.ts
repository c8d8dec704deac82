/**
 * Admin-log outboxes for tests, keeping the port's promise (one line per id): in memory for a test
 * with one process, in Redis for a test whose commands run in worker processes it kills.
 */
import type { Redis } from 'ioredis';
import type { AdminLogOutbox } from '../../src/core/admin-log-outbox';

/** One queued SAL line. */
export interface QueuedLine {
  channel: string;
  line: string;
  id: string;
}

/** Lines in memory, in order; `calls` counts every enqueue, repeats included. */
export class MemoryOutbox implements AdminLogOutbox {
  readonly lines: QueuedLine[] = [];
  calls = 0;
  private readonly ids = new Set<string>();

  async enqueue(channel: string, line: string, id: string): Promise<void> {
    this.calls += 1;
    if (this.ids.has(id)) return;
    this.ids.add(id);
    this.lines.push({ channel, line, id });
  }
}

/** Lines in a Redis list, each id claimed once (SET NX, in the same script as the push) so any process may enqueue. */
export class RedisOutbox implements AdminLogOutbox {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  async enqueue(channel: string, line: string, id: string): Promise<void> {
    await this.redis.incr(`${this.key}:calls`);
    // Claim and push in one step (a script), so a process dying between them loses nothing.
    await this.redis.eval(
      "if redis.call('set', KEYS[1], '1', 'NX') then redis.call('rpush', KEYS[2], ARGV[1]) end return 1",
      2,
      `${this.key}:id:${id}`,
      this.key,
      JSON.stringify({ channel, line, id }),
    );
  }

  /** The lines queued so far, in order. */
  async lines(): Promise<QueuedLine[]> {
    return (await this.redis.lrange(this.key, 0, -1)).map((raw) => JSON.parse(raw) as QueuedLine);
  }

  /** How many times enqueue was called, repeats included. */
  async calls(): Promise<number> {
    return Number((await this.redis.get(`${this.key}:calls`)) ?? 0);
  }
}
