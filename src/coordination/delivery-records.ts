/**
 * The posted-record of one post a queued job makes (a command's reply, an announcement to one
 * conversation): an attempt record per delivery key (`delivery:<key>`, see `attempt-records.ts`),
 * `posting` (when the first attempt started) written before the platform is called, `posted` (the
 * message handle) right after the platform accepted. A retry reads both before it posts anything.
 */
import type { Redis } from 'ioredis';
import type { MessageHandle } from '../core/command';
import { AttemptRecords } from './attempt-records';

/** What a retry finds before it posts. */
export type DeliveryState =
  /** No earlier attempt: post. */
  | { kind: 'fresh' }
  /** An earlier attempt started at `since` (ms) and its answer was never recorded: look before posting. */
  | { kind: 'interrupted'; since: number }
  /** Already posted: do nothing. */
  | { kind: 'posted'; handle: MessageHandle | undefined };

/** Posted-records in Redis, one hash per delivery key. */
export class DeliveryRecords {
  private readonly records: AttemptRecords;

  constructor(redis: Redis, prefix: string) {
    this.records = new AttemptRecords(redis, prefix, {
      segment: 'delivery',
      start: 'posting',
      end: 'posted',
      // Kept longer than a deliver job can live (its failed copy is kept 7 days).
      ttlSeconds: 8 * 86_400,
    });
  }

  /**
   * Marks an attempt as started and tells what earlier attempts left: atomically, so two workers
   * that both pick up a delivery (one of them stalled) agree on when the first attempt started.
   */
  async begin(key: string, now = Date.now()): Promise<DeliveryState> {
    const state = await this.records.begin(key, now);
    if (state.kind !== 'ended') return state;
    return { kind: 'posted', handle: state.value ? (JSON.parse(state.value) as MessageHandle) : undefined };
  }

  /** Records that the platform accepted the post (written right after its answer). */
  async posted(key: string, handle: unknown): Promise<void> {
    await this.records.end(key, isHandle(handle) ? JSON.stringify(handle) : '');
  }
}

function isHandle(value: unknown): value is MessageHandle {
  return typeof value === 'object' && value !== null && 'conversationId' in value && 'ref' in value;
}
