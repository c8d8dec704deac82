import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { TailKind, TailRequest, TailService } from '../core/tail';
import type { Queues } from './queues';
import { TailState, tailKey } from './tail-state';

/** Data of a tail job. */
export interface TailJobData extends TailRequest {
  /** Unix ms the tail began (its time limit counts from here). */
  startedAt: number;
}

/** The job id of a tail: one stream per (resource, conversation). */
export function tailJobId(kind: TailKind, tool: string, id: string, conversationId: string): string {
  return `tail-${createHash('sha256').update(`${kind}|${tool}|${id}|${conversationId}`).digest('hex').slice(0, 32)}`;
}

/** Starts and stops live log tails; the work runs on the `tail` queue. */
export class QueueTailService implements TailService {
  constructor(
    private readonly queues: Queues,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Whether a tail of this resource already runs in the conversation. */
  async running(kind: TailKind, tool: string, id: string, conversationId: string): Promise<boolean> {
    const job = await this.queues.tail.getJob(tailJobId(kind, tool, id, conversationId));
    return job !== undefined && !(await job.isCompleted()) && !(await job.isFailed());
  }

  /**
   * Starts a tail whose card is `handle` (written in `language`, which its edits keep). Resolves false
   * when one already runs there.
   */
  async start(data: TailRequest): Promise<boolean> {
    const jobId = tailJobId(data.kind, data.tool, data.id, data.handle.conversationId);
    if (await this.running(data.kind, data.tool, data.id, data.handle.conversationId)) return false;
    await this.queues.tail.getJob(jobId).then((old) => old?.remove());
    await this.stateOf(jobId).clear();
    await this.queues.tail.add('tail', { ...data, startedAt: Date.now() } satisfies TailJobData, {
      jobId,
      attempts: 3,
      backoff: { type: 'fixed', delay: 1000 },
      removeOnComplete: { age: 300 },
      removeOnFail: { age: 3600 },
    });
    return true;
  }

  /** Asks a running tail to stop (it posts its transcript). */
  async stop(kind: TailKind, tool: string, id: string, conversationId: string): Promise<boolean> {
    if (!(await this.running(kind, tool, id, conversationId))) return false;
    await this.stateOf(tailJobId(kind, tool, id, conversationId)).requestStop();
    return true;
  }

  /** The tails running in a conversation, oldest first. */
  async inConversation(conversationId: string): Promise<Pick<TailRequest, 'kind' | 'tool' | 'id'>[]> {
    const jobs = await this.queues.tail.getJobs(
      ['active', 'waiting', 'delayed', 'prioritized'],
      0,
      1000,
      true,
    );
    return jobs
      .map((job) => job.data as TailJobData)
      .filter((data) => data.handle.conversationId === conversationId)
      .map(({ kind, tool, id }) => ({ kind, tool, id }));
  }

  /**
   * Asks every tail still queued or running to stop (each posts its transcript); resolves with how
   * many were asked. For a process that is about to end (`shell --wait` ran out).
   */
  async stopAll(): Promise<number> {
    const jobs = await this.queues.tail.getJobs(['active', 'waiting', 'delayed', 'prioritized']);
    const ids = jobs.flatMap((job) => (job.id ? [job.id] : []));
    await Promise.all(ids.map((id) => this.stateOf(id).requestStop()));
    return ids.length;
  }

  /** The Redis state of a tail. */
  stateOf(jobId: string): TailState {
    return new TailState(this.redis, tailKey(this.prefix, jobId));
  }
}
