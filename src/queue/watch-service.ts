import type { Redis } from 'ioredis';
import type { WatchRequest, WatchService } from '../core/watch';
import { DELIVER_QUEUES, type Queues, type WatchJobData, watchJobId } from './queues';

/** Keeps finished watch jobs briefly, so a late duplicate request finds them (and is ignored). */
const KEEP_FINISHED = { age: 300 };

/**
 * Starts durable watches on BullMQ: one job per resource (its job id), whichever process or click asks;
 * each request's card is added to the set of cards the watch keeps up to date.
 */
export class QueueWatchService implements WatchService {
  constructor(
    private readonly queues: Queues,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async start(request: WatchRequest): Promise<void> {
    const jobId = watchJobId(request.kind, request.tool, request.id);
    // A watch that exists — running, or finished a moment ago — already covers the resource; a running
    // one takes the new card too. (The card of a finished resource already shows its final state.)
    // One round trip: the card is added while it is read whether the job is there and whether it is
    // in a finished set; taken out again in the rare case it finished (its last edit may then show
    // the card its final state too, which it shows already).
    const { watch } = this.queues;
    const cards = watchCardsKey(this.prefix, jobId);
    const card = request.handle ? JSON.stringify(request.handle) : undefined;
    const [, , present, completed, failed] = await Promise.all([
      card ? this.redis.sadd(cards, card) : undefined,
      // Who started the work, kept beside the watch (whether this request creates it or a watch of
      // discovery has it already): the first starter stays.
      request.starter
        ? this.redis.set(
            watchStarterKey(this.prefix, jobId),
            JSON.stringify({ ...request.starter, ...(request.handle ? { card: request.handle } : {}) }),
            'EX',
            STARTER_TTL_SECONDS,
            'NX',
          )
        : undefined,
      this.redis.exists(watch.toKey(jobId)),
      this.redis.zscore(watch.keys.completed as string, jobId),
      this.redis.zscore(watch.keys.failed as string, jobId),
    ]);
    const existing = present === 1;
    const finished = existing && (completed !== null || failed !== null);
    if (card && finished) await this.redis.srem(cards, card);
    if (existing) return;
    const data: WatchJobData = {
      kind: request.kind,
      tool: request.tool,
      id: request.id,
      startedAt: Date.now(),
      attempt: 0,
      errors: 0,
      ...(request.language ? { language: request.language } : {}),
    };
    await this.queues.watch.add('watch', data, {
      jobId,
      removeOnComplete: KEEP_FINISHED,
      removeOnFail: KEEP_FINISHED,
    });
  }

  /**
   * Watches, announcements, tails, uploads and migrations still queued or running (discovery and digest
   * schedules never end, so not them).
   */
  async activeCount(): Promise<number> {
    const { watch, notify, tail, upload, migration } = this.queues;
    const queues = [
      watch,
      notify,
      ...DELIVER_QUEUES.map((name) => this.queues[name]),
      tail,
      upload,
      migration,
    ];
    const counts = await Promise.all(
      queues.map((q) => q.getJobCounts('active', 'waiting', 'delayed', 'prioritized')),
    );
    return counts.flatMap((c) => Object.values(c)).reduce((sum, n) => sum + n, 0);
  }
}

/** How long the starter of a watched resource is kept (longer than any watch follows one). */
const STARTER_TTL_SECONDS = 7 * 86_400;

/** Redis key of who started a watched resource from chat (JSON of a `Starter`). */
export function watchStarterKey(prefix: string, jobId: string): string {
  return `${prefix}watch-starter:${jobId}`;
}

/** Redis set of the message handles (JSON) a watch keeps up to date. */
export function watchCardsKey(prefix: string, jobId: string): string {
  return `${prefix}watch-cards:${jobId}`;
}
