/**
 * Digests on BullMQ, the calendar's and each tool's: one job scheduler per conversation and subject
 * (`digest|<conversation id>` for the calendar, `digest|<conversation id>|<tool>` for a tool), a cron
 * pattern in the digest's time zone (`0 9 * * *` daily at 09:00, `0 9 * * 1` on Mondays). The
 * scheduler itself is the stored setting: reading it back shows what a conversation gets, removing
 * it stops the digest. Each run is a `digest` job that the digest processor turns into a card.
 */
import type { Queue } from 'bullmq';
import type { Platform } from '../core/conversation';

/** How often a digest comes. */
export type DigestFrequency = 'daily' | 'weekly';

/** One conversation's digest: the data of each of its jobs. */
export interface DigestJobData {
  conversationId: string;
  platform: Platform;
  every: DigestFrequency;
  /** `HH:MM`, in {@link timezone}. */
  at: string;
  /** Weekly digests: the day, 0 = Sunday. */
  weekday: number;
  /** IANA zone the time is read in (the calendar site's by default). */
  timezone: string;
  /** `platform:userId` of who set it up. */
  createdBy: string;
  /** The tool a tool digest reports on; absent for the calendar digest. */
  tool?: string;
}

/** A digest as stored, with when it runs next. */
export interface DigestSchedule extends DigestJobData {
  /** Unix ms of the next run. */
  next: number | undefined;
  pattern: string;
}

/** The scheduler id of a conversation's digest: the calendar's, or `tool`'s. */
export function digestSchedulerId(conversationId: string, tool?: string): string {
  return tool ? `digest|${conversationId}|${tool}` : `digest|${conversationId}`;
}

/** The cron pattern of a digest: minute, hour, every day or one weekday. */
export function digestPattern(data: Pick<DigestJobData, 'every' | 'at' | 'weekday'>): string {
  const [hour, minute] = data.at.split(':').map(Number) as [number, number];
  return `${minute} ${hour} * * ${data.every === 'weekly' ? data.weekday : '*'}`;
}

/** Sets, reads and removes the digest of conversations. */
export class DigestScheduler {
  constructor(private readonly queue: Queue) {}

  /** Starts or changes a conversation's digest (one per conversation); returns it as stored. */
  async set(data: DigestJobData): Promise<DigestSchedule> {
    await this.queue.upsertJobScheduler(
      digestSchedulerId(data.conversationId, data.tool),
      { pattern: digestPattern(data), tz: data.timezone },
      {
        name: 'digest',
        data,
        opts: {
          attempts: 3,
          backoff: { type: 'exponential', delay: 30_000 },
          removeOnComplete: true,
          removeOnFail: { age: 86_400 },
        },
      },
    );
    const stored = await this.get(data.conversationId, data.tool);
    if (!stored) throw new Error('the digest scheduler was not stored');
    return stored;
  }

  /** The conversation's calendar digest, or its digest of `tool`, if it has one. */
  async get(conversationId: string, tool?: string): Promise<DigestSchedule | undefined> {
    return this.read(digestSchedulerId(conversationId, tool));
  }

  /** Every digest of every conversation (calendar and tools), as stored. */
  async list(): Promise<DigestSchedule[]> {
    const schedulers = await this.queue.getJobSchedulers(0, -1);
    const ids = schedulers.map((s) => s.key).filter((key) => key.startsWith('digest|'));
    const found = await Promise.all(ids.map((id) => this.read(id)));
    return found.filter((d): d is DigestSchedule => d !== undefined);
  }

  /** The conversation's digests of `tools` (those it has). */
  async ofTools(conversationId: string, tools: readonly string[]): Promise<DigestSchedule[]> {
    const found = await Promise.all(tools.map((tool) => this.get(conversationId, tool)));
    return found.filter((d): d is DigestSchedule => d !== undefined);
  }

  /** Stops the conversation's calendar digest, or its digest of `tool`; false when it had none. */
  async remove(conversationId: string, tool?: string): Promise<boolean> {
    return this.queue.removeJobScheduler(digestSchedulerId(conversationId, tool));
  }

  private async read(id: string): Promise<DigestSchedule | undefined> {
    const scheduler = await this.queue.getJobScheduler(id);
    const data = scheduler?.template?.data as DigestJobData | undefined;
    if (!scheduler || !data) return undefined;
    return { ...data, next: scheduler.next, pattern: scheduler.pattern ?? digestPattern(data) };
  }
}
