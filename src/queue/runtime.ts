import { type Job, type Processor, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { TERMINAL_NAME } from '../../adapters/platform-names';
import type { CardPublishing } from '../core/card-publisher';
import type { ChatUser, MessageHandle } from '../core/command';
import type { FailureClaimStore } from '../core/failure-claim';
import type { WatchEvent, WatchKind } from '../core/watch';
import { jobHealth, type ToolhostClientFactory } from '../services/toolhost';
import { logConnectionErrors } from '../store/connection-errors';
import type { SubscriptionStore } from '../store/subscriptions';
import { createDeliverProcessor } from './deliver-processor';
import { createDiscoverProcessor } from './discover-processor';
import { inJobInvocation, invocationOf } from './job-context';
import { createNotifyProcessor } from './notify-processor';
import type { PersonalDeps } from './personal-delivery';
import { letFollowsGo } from './poll-job';
import { instrumentWorker } from './queue-metrics';
import { bullPrefix, DELIVER_QUEUES, deliverQueueOf, type QueueName, type Queues } from './queues';
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
  /** Posts and edits the workers' cards (watches, announcements, threads). */
  cards: CardPublishing;
  logger: Logger;
  basePollMs: number;
  maxPollMs: number;
  maxAgeMs: number;
  /** How long a crashed worker's job stays locked before another worker takes it over. */
  lockMs: number;
  /**
   * The chat platforms whose messenger runs in this process: only their `deliver-<platform>` queues get
   * a worker here (a process without a platform's adapter could not post there anyway).
   */
  platforms: readonly string[];
  /** Claimed failures (their repeats silenced, their cards edited); none: every failure is announced. */
  failures?: FailureClaimStore;
  /** How long a claimed job must stay well before its recovery is announced. */
  recoveryQuietMs?: number;
  /** Direct messages to the starters of work (`/notify`); none: no direct messages. */
  personal?: PersonalDeps;
  /** Opens a person's direct conversation with the bot, on a platform whose adapter runs here. */
  openDirect?: (user: ChatUser) => Promise<string>;
  /** A web link to a posted card (the direct message links to the work's card). */
  linkTo?: (handle: MessageHandle) => Promise<string | undefined>;
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

/**
 * Follows (watches, migrations) one worker holds at once: a follow holds its job between looks and
 * costs little more than a timer while it waits, so a worker can hold many; more wait for a slot.
 */
export const FOLLOWS_PER_WORKER = 10_000;

/** Queues whose jobs are follows (see `poll-job.ts`). */
const FOLLOW_QUEUES: ReadonlySet<QueueName> = new Set(['watch', 'migration']);

/** Announcements posted at once to one chat platform (the terminal's take a few). */
const DELIVER_CONCURRENCY = { chat: 20, terminal: 5 };

/** How many jobs of each queue one process works on at once (all of them wait on the network). */
const CONCURRENCY: Record<QueueName, number> = {
  watch: FOLLOWS_PER_WORKER,
  notify: 10,
  ...(Object.fromEntries(
    DELIVER_QUEUES.map((queue) => [
      queue,
      queue === deliverQueueOf(TERMINAL_NAME) ? DELIVER_CONCURRENCY.terminal : DELIVER_CONCURRENCY.chat,
    ]),
  ) as Record<(typeof DELIVER_QUEUES)[number], number>),
  discover: 5,
  tail: 100,
  digest: 5,
  migration: FOLLOWS_PER_WORKER,
  upload: 20,
  commands: 50,
};

/** The running workers of a process (`--role worker|all`). */
export interface Workers {
  /** Starts the worker of `platform`'s announcements, unless it runs already. */
  deliverTo(platform: string): void;
  close(): Promise<void>;
}

/** Starts one BullMQ worker per queue in this process. */
export function startWorkers<S>(deps: WorkerDeps<S>): Workers {
  const deliver = createDeliverProcessor({
    kinds: deps.kinds,
    cards: deps.cards,
    subscriptions: deps.subscriptions,
    redis: deps.redis,
    prefix: deps.keyPrefix,
    logger: deps.logger,
    failures: deps.failures,
    openDirect: deps.openDirect,
    linkTo: deps.linkTo,
  }) as Processor;
  const workers: Worker[] = [];
  const start = (name: QueueName, processor: Processor, extra?: ExtraProcessor): Worker => {
    const worker = new Worker(name, inJobInvocation(processor), {
      ...lockOptions(deps.lockMs, name),
      ...(extra?.maxStalledCount !== undefined ? { maxStalledCount: extra.maxStalledCount } : {}),
      connection: deps.connection,
      prefix: bullPrefix(deps.keyPrefix, name),
      concurrency: extra?.concurrency ?? CONCURRENCY[name],
    });
    if (FOLLOW_QUEUES.has(name)) letFollowsGo(worker);
    instrumentWorker(worker, name);
    logConnectionErrors(worker, deps.logger, `worker ${name}`);
    worker.on('failed', (job, error) =>
      deps.logger.warn(
        {
          queue: name,
          job: job?.id,
          attempts: job?.attemptsMade,
          error: error.message,
          // BullMQ reports a failure outside the job's run: its invocation is named here.
          ...(invocationOf(job) ? { invocation: invocationOf(job) } : {}),
        },
        'queued job failed',
      ),
    );
    workers.push(worker);
    return worker;
  };
  start('watch', createWatchProcessor({ ...deps, prefix: deps.keyPrefix }) as Processor);
  const failures = deps.failures;
  const claimed = failures && {
    queues: deps.queues,
    failures,
    cards: deps.cards,
    logger: deps.logger,
    quietMs: deps.recoveryQuietMs ?? 0,
    health: (event: WatchEvent) => jobHealth(deps.toolhost.forTool(event.tool), event.id),
  };
  start(
    'notify',
    createNotifyProcessor({ ...deps, prefix: deps.keyPrefix, claimed, personal: deps.personal }) as Processor,
  );
  start('discover', createDiscoverProcessor({ ...deps, prefix: deps.keyPrefix }) as Processor);
  for (const [name, extra] of Object.entries(deps.extra ?? {}) as [QueueName, ExtraProcessor][]) {
    const worker = start(name, extra.processor, extra);
    const onFailed = extra.onFailed;
    if (onFailed) {
      worker.on('failed', (job) => {
        if (job)
          onFailed(job).catch((error: unknown) =>
            deps.logger.warn({ err: error, queue: name }, 'could not clean up after a failed job'),
          );
      });
    }
  }
  // Announcements: a worker per platform whose adapter runs here, started when it registers.
  const delivering = new Set<string>();
  let closed = false;
  const deliverTo = (platform: string) => {
    const name = DELIVER_QUEUES.find((queue) => queue === `deliver-${platform}`);
    if (!name || delivering.has(name) || closed) return;
    delivering.add(name);
    start(name, deliver);
  };
  for (const platform of deps.platforms) deliverTo(platform);
  return {
    deliverTo,
    async close() {
      closed = true;
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
 * Seconds an idle worker waits for a new job in one blocking read, then checks once (about 8 Redis
 * commands) and waits again. A new job ends the wait at once (BullMQ adds a marker the read waits on),
 * and a delayed job's due time shortens it (to at most 10 s), so the length of the wait adds no latency:
 * it sets what an idle worker costs Redis, and how soon an idle worker whose read was lost in a network
 * partition notices a new job after the network is back (BullMQ gives such a read up a second after its
 * timeout). The commands (what a person typed) wait 10 s; the other queues a minute.
 */
function drainSeconds(queue: QueueName): number {
  return queue === 'commands' ? 10 : 60;
}

/** Crashes of its worker a follow is taken over after. */
const FOLLOW_MAX_STALLED = 20;

/**
 * Lock and polling settings: a crashed worker's jobs are found stalled and taken over after about
 * `lockMs`; an idle worker waits {@link drainSeconds} for its next job.
 */
function lockOptions(lockMs: number, queue: QueueName) {
  return {
    lockDuration: lockMs,
    stalledInterval: lockMs,
    // A follow is held for its whole life, so every crash of its worker finds it stalled; looking
    // again is harmless, so it is taken over many times before it counts as failed.
    maxStalledCount: FOLLOW_QUEUES.has(queue) ? FOLLOW_MAX_STALLED : 3,
    drainDelay: drainSeconds(queue),
  };
}
