import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { CommandJob, CommandQueue } from '../core/command-job';

/** What a job of the `commands` queue carries: the command and its lane. */
export interface CommandJobData extends CommandJob {
  /** Whose commands run one after another: one person in one conversation. */
  lane: string;
}

/** How long a lane's order is kept when nothing more happens in it. */
const LANE_TTL_SECONDS = 24 * 3600;

/** Job id of a delivery: one job per delivery key (BullMQ ids cannot contain `:`). */
export function commandJobId(key: string): string {
  return `cmd-${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}

/** The lane of a command: its conversation and the person who gave it. */
export function laneOf(job: CommandJob): string {
  const user = job.invocation.user;
  return `${job.invocation.conversationId}|${user.platform}:${user.workspace}:${user.id}`;
}

/** Redis key of a lane's FIFO (job ids in arrival order). */
export function laneKey(prefix: string, lane: string): string {
  return `${prefix}cmd:lane:${lane}`;
}

/**
 * Hands commands to the workers on BullMQ: the job id is the delivery's (a re-delivery cannot queue
 * twice) and the job joins the end of its lane first, so a person's commands in one conversation run
 * in the order they arrived whichever worker takes them (see `command-processor.ts`).
 */
export class BullCommandQueue implements CommandQueue {
  constructor(
    private readonly queue: Queue,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async enqueue(job: CommandJob): Promise<void> {
    // A repeat of a delivery is dropped by the adapter's claim before it gets here; should one still
    // come, BullMQ ignores the second add of the job id, and its extra lane entry is dropped as ended.
    const jobId = commandJobId(job.key);
    const lane = laneOf(job);
    const key = laneKey(this.prefix, lane);
    await this.redis.multi().rpush(key, jobId).expire(key, LANE_TTL_SECONDS).exec();
    const data: CommandJobData = { ...job, lane };
    await this.queue.add('command', data, {
      jobId,
      // A command is not retried after it failed (it may have done part of its work); a worker that
      // died mid-command is covered by the stalled-job check (see `runtime.ts`).
      attempts: 1,
      removeOnComplete: { age: 3600, count: 5000 },
      removeOnFail: { age: 24 * 3600, count: 5000 },
    });
  }
}
