import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { CommandJob, CommandQueue } from '../core/command-job';

/** What a job of the `commands` queue carries: the command and its lane. */
export interface CommandJobData extends CommandJob {
  /** Whose commands run one after another: one person in one conversation. */
  lane: string;
  /**
   * The job was the only entry of its lane when it joined it: it is the head, and stays the head
   * until it leaves (nothing ahead of it can appear), so its worker need not read the lane.
   */
  laneHead?: true;
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

/**
 * Redis key of a lane's FIFO (job ids in arrival order). Every lane carries the `commands` queue's
 * hash tag (see `bullPrefix`): a burst's lanes are joined in one script, which on a Redis Cluster
 * needs its keys in one slot — the slot of the queue the jobs go to.
 */
export function laneKey(prefix: string, lane: string): string {
  return `${prefix}cmd:lane:{commands}:${lane}`;
}

/** The options of every command job. */
const JOB_OPTIONS = {
  // A command is not retried after it failed (it may have done part of its work); a worker that
  // died mid-command is covered by the stalled-job check (see `runtime.ts`).
  attempts: 1,
  removeOnComplete: { age: 3600, count: 5000 },
  removeOnFail: { age: 24 * 3600, count: 5000 },
} as const;

interface Pending {
  data: CommandJobData;
  jobId: string;
  done: () => void;
  failed: (error: unknown) => void;
}

/**
 * Joins each job to the end of its lane (KEYS[i] gets ARGV[i]), renews every lane's expiry
 * (ARGV[#KEYS + 1] seconds) and returns the lanes' new lengths: one command, atomic, for a burst.
 */
const JOIN_LANES = `local lengths = {}
for i, key in ipairs(KEYS) do
  lengths[i] = redis.call('RPUSH', key, ARGV[i])
  redis.call('EXPIRE', key, ARGV[#KEYS + 1])
end
return lengths`;

/**
 * Hands commands to the workers on BullMQ: the job id is the delivery's (a re-delivery cannot queue
 * twice) and the job joins the end of its lane first, so a person's commands in one conversation run
 * in the order they arrived whichever worker takes them (see `command-processor.ts`).
 *
 * A job that found its lane empty says so (`laneHead`): the worker runs it without reading the lane,
 * one Redis round trip less between a command and its first reply.
 *
 * The commands handed over in one turn of the event loop (a burst of slash commands) are queued
 * together: their lanes in one script, then the jobs in one `addBulk` — two round trips for the
 * burst instead of two per command. A lone command (the usual case when people's commands arrive
 * spread out) is added with `add`: `addBulk` and a MULTI build an ioredis pipeline, which copies every
 * script defined on the connection (BullMQ's ~50) onto itself — the web process's largest allocation
 * per command, and a cause of its major collections under load.
 */
export class BullCommandQueue implements CommandQueue {
  private pending: Pending[] = [];

  constructor(
    private readonly queue: Queue,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  enqueue(job: CommandJob): Promise<void> {
    // A repeat of a delivery is dropped by the adapter's claim before it gets here; should one still
    // come, BullMQ ignores the second add of the job id, and its extra lane entry is dropped as ended.
    return new Promise((done, failed) => {
      const lane = laneOf(job);
      this.pending.push({ data: { ...job, lane }, jobId: commandJobId(job.key), done, failed });
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      const keys = batch.map(({ data }) => laneKey(this.prefix, data.lane));
      const ids = batch.map(({ jobId }) => jobId);
      const lengths = (await this.redis.eval(
        JOIN_LANES,
        keys.length,
        ...keys,
        ...ids,
        LANE_TTL_SECONDS,
      )) as number[];
      const jobs = batch.map(({ data, jobId }, n) => ({
        name: 'command',
        data: lengths[n] === 1 ? { ...data, laneHead: true as const } : data,
        opts: { ...JOB_OPTIONS, jobId },
      }));
      const [only] = jobs;
      if (only && jobs.length === 1) await this.queue.add(only.name, only.data, only.opts);
      else await this.queue.addBulk(jobs);
      for (const { done } of batch) done();
    } catch (error) {
      for (const { failed } of batch) failed(error);
    }
  }
}
