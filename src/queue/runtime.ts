import { type Job, type Processor, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { MessageHandle } from '../core/command';
import type { DraftCard } from '../core/reply';
import type { WatchKind } from '../core/watch';
import type { ToolhostClientFactory } from '../services/toolhost';
import { logConnectionErrors } from '../store/connection-errors';
import type { SubscriptionStore } from '../store/subscriptions';
import { createDeliverProcessor } from './deliver-processor';
import { createDiscoverProcessor } from './discover-processor';
import { inJobInvocation, invocationOf } from './job-context';
import { createNotifyProcessor } from './notify-processor';
import { instrumentWorker } from './queue-metrics';
import { bullPrefix, DELIVER_QUEUES, type QueueName, type Queues } from './queues';
import { createWatchProcessor } from './watch-processor';
import type { QueueWatchService } from './watch-service';

/** What the workers need from the application. */
export interface WorkerDeps<S> {
  queues: Queues;
  /** Connection the workers duplicate for their blocking reads. */
  connection: Redis;
  keyPrefix: string;
  redis: Redis;
  kinds: readonly WatchKind<S>[];
  services: S;
  toolhost: ToolhostClientFactory;
  watches: QueueWatchService;
  subscriptions: SubscriptionStore;
  updateCard(handle: MessageHandle, card: DraftCard): Promise<void>;
  postCard(conversationId: string, card: DraftCard): Promise<unknown>;
  /** Posts a card in the thread of a posted message (threaded subscriptions). */
  postInThread?(parent: MessageHandle, card: DraftCard): Promise<MessageHandle>;
  logger: Logger;
  basePollMs: number;
  maxPollMs: number;
  maxAgeMs: number;
  /** How long a crashed worker's job stays locked before another worker takes it over. */
  lockMs: number;
  /** Extra processors (the log tails, the commands) by queue. */
  extra?: Partial<Record<QueueName, ExtraProcessor>>;
}

/** A processor wired by the composition root. */
export interface ExtraProcessor {
  processor: Processor;
  concurrency: number;
  /** How often a job may be found stalled (its worker died) before it fails (default 3). */
  maxStalledCount?: number;
  /** Called when a job failed (for queues whose jobs are not retried: failed for good). */
  onFailed?: (job: Job) => Promise<void>;
}

/** How many jobs of each queue one process works on at once (all of them wait on the network). */
const CONCURRENCY: Record<QueueName, number> = {
  watch: 50,
  notify: 10,
  'deliver-slack': 20,
  'deliver-discord': 20,
  'deliver-telegram': 20,
  'deliver-shell': 5,
  discover: 5,
  tail: 100,
  digest: 5,
  migration: 20,
  upload: 20,
  commands: 50,
};

/** The running workers of a process (`--role worker|all`). */
export interface Workers {
  close(): Promise<void>;
}

/** Starts one BullMQ worker per queue in this process. */
export function startWorkers<S>(deps: WorkerDeps<S>): Workers {
  const deliver = createDeliverProcessor({
    kinds: deps.kinds,
    post: deps.postCard,
    ...(deps.postInThread ? { postInThread: deps.postInThread, update: deps.updateCard } : {}),
    subscriptions: deps.subscriptions,
    redis: deps.redis,
    prefix: deps.keyPrefix,
    logger: deps.logger,
  }) as Processor;
  const processors: Partial<Record<QueueName, Processor>> = {
    watch: createWatchProcessor({ ...deps, prefix: deps.keyPrefix }) as Processor,
    notify: createNotifyProcessor({ ...deps, prefix: deps.keyPrefix }) as Processor,
    ...Object.fromEntries(DELIVER_QUEUES.map((name) => [name, deliver])),
    discover: createDiscoverProcessor({ ...deps, prefix: deps.keyPrefix }) as Processor,
  };
  const workers: Worker[] = [];
  for (const [name, processor] of Object.entries(processors) as [QueueName, Processor][]) {
    workers.push(
      new Worker(name, inJobInvocation(processor), {
        ...lockOptions(deps.lockMs),
        connection: deps.connection,
        prefix: bullPrefix(deps.keyPrefix, name),
        concurrency: CONCURRENCY[name],
      }),
    );
  }
  for (const [name, extra] of Object.entries(deps.extra ?? {}) as [QueueName, ExtraProcessor][]) {
    const worker = new Worker(name, inJobInvocation(extra.processor), {
      ...lockOptions(deps.lockMs),
      ...(extra.maxStalledCount !== undefined ? { maxStalledCount: extra.maxStalledCount } : {}),
      connection: deps.connection,
      prefix: bullPrefix(deps.keyPrefix, name),
      concurrency: extra.concurrency,
    });
    const onFailed = extra.onFailed;
    if (onFailed) {
      worker.on('failed', (job) => {
        if (job)
          onFailed(job).catch((error: unknown) =>
            deps.logger.warn({ err: error, queue: name }, 'could not clean up after a failed job'),
          );
      });
    }
    workers.push(worker);
  }
  for (const worker of workers) {
    instrumentWorker(worker, worker.name);
    logConnectionErrors(worker, deps.logger, `worker ${worker.name}`);
    worker.on('failed', (job, error) =>
      deps.logger.warn(
        {
          queue: worker.name,
          job: job?.id,
          attempts: job?.attemptsMade,
          error: error.message,
          // BullMQ reports a failure outside the job's run: its invocation is named here.
          ...(invocationOf(job) ? { invocation: invocationOf(job) } : {}),
        },
        'queued job failed',
      ),
    );
  }
  return {
    async close() {
      // A tail can run for minutes: do not wait for it. Its lock lapses and another worker (or this one
      // after a restart) resumes it from the transcript and cursor kept in Redis.
      await Promise.all(workers.map((worker) => closeWorker(worker, worker.name === 'tail', deps.logger)));
    },
  };
}

/**
 * How long a worker may take to close (its running jobs to finish, its connections to quit) before
 * its connections are cut: a job stuck on a Redis that cannot answer (a Cluster master lost with no
 * replica to take over) would otherwise hold the shutdown for ever. A job cut off this way keeps its
 * lock until it lapses; then it is found stalled and run again or failed, as after a crash.
 */
export const WORKER_CLOSE_GRACE_MS = 5000;

async function closeWorker(worker: Worker, force: boolean, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    worker.close(force).then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), WORKER_CLOSE_GRACE_MS);
    }),
  ]);
  clearTimeout(timer);
  if (closed) return;
  logger.warn({ queue: worker.name }, 'worker did not close in time: its connections are cut');
  // Not awaited: BullMQ waits for the connections' end, which a Cluster client may never report.
  worker.disconnect().catch(() => undefined);
}

/**
 * Lock and polling settings: a crashed worker's jobs are found stalled and taken over after about
 * `lockMs`. An idle worker waits for its queue's next job in one blocking read of up to 10 s (BullMQ's
 * longest; its default is 5 s), then checks once and waits again: every queue's worker costs Redis
 * about 8 commands per wait, so the longest wait halves what an idle process costs. New jobs end the
 * wait at once, so it adds no latency.
 */
function lockOptions(lockMs: number) {
  return { lockDuration: lockMs, stalledInterval: lockMs, maxStalledCount: 3, drainDelay: 10 };
}
