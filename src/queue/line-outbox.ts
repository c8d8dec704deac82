/**
 * {@link LineOutbox} on BullMQ: one queue per platform (`outbound-<platform>`), the message id as the
 * job id (a retry or a second enqueue of the same message adds nothing), one job at a time in the
 * consuming process so lines keep their order. Delivered jobs are kept a week, so an id queued again
 * within that time is still recognised.
 */
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { LineConsumer, LineOutbox, OutboundMessage } from '../core/line-outbox';

const KEEP_SECONDS = 7 * 24 * 3600;

/** BullMQ job ids may not contain `:` (unless in three parts): ids are hashed to a safe form. */
function jobIdOf(id: string): string {
  return `m-${Buffer.from(id).toString('base64url')}`;
}

/** The outbox of `platform` under `keyPrefix`. */
export class BullLineOutbox implements LineOutbox {
  private readonly queue: Queue;
  private readonly prefix: string;
  private readonly name: string;
  private consumer: Worker | undefined;

  constructor(
    private readonly connection: Redis,
    keyPrefix: string,
    platform: string,
    private readonly logger: Logger,
  ) {
    this.name = `outbound-${platform}`;
    this.prefix = `${keyPrefix}bull:{${this.name}}`;
    this.queue = new Queue(this.name, { connection, prefix: this.prefix });
  }

  async enqueue(id: string, message: OutboundMessage): Promise<void> {
    await this.queue.add('lines', message, {
      jobId: jobIdOf(id),
      attempts: 1_000,
      backoff: { type: 'fixed', delay: 5_000 },
      removeOnComplete: { age: KEEP_SECONDS },
      removeOnFail: { age: KEEP_SECONDS },
    });
  }

  consume(send: (message: OutboundMessage, id: string) => Promise<void>): LineConsumer {
    const worker = new Worker(this.name, async (job) => send(job.data as OutboundMessage, String(job.id)), {
      connection: this.connection,
      prefix: this.prefix,
      concurrency: 1,
      lockDuration: 60_000,
    });
    worker.on('error', (error) => this.logger.warn({ err: error, queue: this.name }, 'outbox worker error'));
    this.consumer = worker;
    return {
      // Not waiting for a message in flight (it may be waiting for the link): it is taken up again
      // later, and its pieces already sent are not sent twice.
      close: async () => {
        await worker.close(true);
        if (this.consumer === worker) this.consumer = undefined;
      },
    };
  }

  async waiting(): Promise<number> {
    const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  }

  async close(): Promise<void> {
    await this.consumer?.close(true);
    await this.queue.close();
  }
}

/** One {@link BullLineOutbox} per platform, made on first use; closed together. */
export class LineOutboxes {
  private readonly outboxes = new Map<string, BullLineOutbox>();

  constructor(
    private readonly connection: Redis,
    private readonly keyPrefix: string,
    private readonly logger: Logger,
  ) {}

  /** The outbox of `platform`. */
  of(platform: string): BullLineOutbox {
    let outbox = this.outboxes.get(platform);
    if (!outbox) {
      outbox = new BullLineOutbox(this.connection, this.keyPrefix, platform, this.logger);
      this.outboxes.set(platform, outbox);
    }
    return outbox;
  }

  /** Closes every outbox made. */
  async close(): Promise<void> {
    for (const outbox of this.outboxes.values()) await outbox.close();
  }
}
