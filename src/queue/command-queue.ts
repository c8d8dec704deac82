import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { joinLanes, laneOf } from '../coordination/lanes';
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

/** Job id of a delivery: one job per delivery key (BullMQ ids cannot contain `:`). */
export function commandJobId(key: string): string {
  return `cmd-${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}

/** The options of every command job (the benchmarks queue bare jobs with them too). */
export const COMMAND_JOB_OPTIONS = {
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
 * Hands commands to the workers on BullMQ: the job id is the delivery's (a re-delivery cannot queue
 * twice) and the job joins the end of its lane first, so a person's commands in one conversation run
 * in the order they arrived whichever worker takes them (see `src/coordination/lanes.ts`).
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
      const lengths = await joinLanes(
        this.redis,
        this.prefix,
        batch.map(({ data, jobId }) => ({ lane: data.lane, id: jobId })),
      );
      const jobs = batch.map(({ data, jobId }, n) => ({
        name: 'command',
        data: lengths[n] === 1 ? { ...data, laneHead: true as const } : data,
        opts: { ...COMMAND_JOB_OPTIONS, jobId },
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
