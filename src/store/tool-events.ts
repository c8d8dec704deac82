/**
 * What the watches saw happen to each tool (deployments ending, jobs failing or restarting, builds),
 * kept for the tool digests: one sorted set per tool, `<prefix>tool-events:{<tool>}`, scored by when
 * the change was seen. Recording the same event twice (a retried fan-out) stores it once. Events older
 * than {@link TOOL_EVENTS_KEPT_MS} are trimmed on each write.
 */
import type { Redis } from 'ioredis';
import type { WatchEvent } from '../core/watch';

/** How long events are kept: longer than the longest digest period (a week). */
export const TOOL_EVENTS_KEPT_MS = 8 * 86_400_000;

/** The tools' event log in Redis. */
export class ToolEventLog {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
  ) {}

  /** Records one watch event of its tool. */
  async record(event: WatchEvent): Promise<void> {
    const key = this.key(event.tool);
    await this.redis.zadd(key, event.at, JSON.stringify(event));
    await this.redis.zremrangebyscore(key, '-inf', event.at - TOOL_EVENTS_KEPT_MS);
  }

  /** The events of `tool` seen in `[start, end)`, oldest first. */
  async between(tool: string, start: number, end: number): Promise<WatchEvent[]> {
    const raw = await this.redis.zrangebyscore(this.key(tool), start, `(${end}`);
    return raw.map((r) => JSON.parse(r) as WatchEvent);
  }

  private key(tool: string): string {
    return `${this.prefix}tool-events:{${tool}}`;
  }
}
