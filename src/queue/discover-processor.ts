import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DeckhandError, NotFoundError } from '../core/errors';
import type { WatchEvent, WatchService } from '../core/watch';
import type { ToolhostClientFactory } from '../services/toolhost';
import {
  FINISHED_BUILD_STATUSES,
  FINISHED_DEPLOYMENT_STATUSES,
  jobFailureFacts,
  jobOutcome,
} from '../services/toolhost';
import type { SubscriptionKind, SubscriptionStore } from '../store/subscriptions';
import { notifyJobId, type Queues } from './queues';

/** What discovery needs. */
export interface DiscoverDeps {
  toolhost: ToolhostClientFactory;
  watches: WatchService;
  subscriptions: SubscriptionStore;
  queues: Queues;
  redis: Redis;
  prefix: string;
  logger: Logger;
}

/** The scheduler id of a tool's discovery. */
export function discoverSchedulerId(tool: string): string {
  return `discover|${tool}`;
}

/** Starts (or updates) the periodic discovery of a subscribed tool. */
export async function scheduleDiscovery(queues: Queues, tool: string, everyMs: number): Promise<void> {
  await queues.discover.upsertJobScheduler(
    discoverSchedulerId(tool),
    { every: everyMs },
    { name: 'discover', data: { tool }, opts: { removeOnComplete: true, removeOnFail: { age: 3600 } } },
  );
}

/** Stops the discovery of a tool nobody subscribes to any more. */
export async function unscheduleDiscovery(queues: Queues, tool: string): Promise<void> {
  await queues.discover.removeJobScheduler(discoverSchedulerId(tool));
}

/** The Redis keys in which discovery remembers what it saw of a tool, per subscription kind. */
function seenKeys(prefix: string, tool: string): Record<SubscriptionKind, string> {
  return {
    deploys: `${prefix}seen:deployment:${tool}`,
    builds: `${prefix}seen:build:${tool}`,
    jobs: `${prefix}jobstate:${tool}`,
  };
}

/**
 * Forgets what discovery saw of `kinds` of a tool. Called when a conversation subscribes to kinds
 * nobody else follows: what was remembered may be from long ago (an earlier subscription, an
 * earlier sandbox run on the same Redis), and the next look would take everything since for news.
 * Without it, the next look only records what exists, as a first look does.
 */
export async function forgetDiscovered(
  redis: Redis,
  prefix: string,
  tool: string,
  kinds: readonly SubscriptionKind[],
): Promise<void> {
  if (kinds.length === 0) return;
  const keys = seenKeys(prefix, tool);
  // One DEL per key: they are in different Cluster slots.
  await Promise.all(kinds.map((kind) => redis.del(keys[kind])));
}

/**
 * Finds builds and deployments started outside the bot (CI, the platform's CLI) and watches them, so
 * they are announced like the bot's own. The first look at a tool only records what exists.
 */
export function createDiscoverProcessor(deps: DiscoverDeps) {
  const seenKey = (tool: string, kind: 'deployment' | 'build') =>
    seenKeys(deps.prefix, tool)[kind === 'deployment' ? 'deploys' : 'builds'];
  const seen = async (
    tool: string,
    kind: 'deployment' | 'build',
    id: string,
  ): Promise<'new' | 'known' | 'primed'> => {
    const key = seenKey(tool, kind);
    if (!(await deps.redis.exists(key))) return 'primed';
    return (await deps.redis.sismember(key, id)) === 1 ? 'known' : 'new';
  };

  const discover = async (
    tool: string,
    kind: 'deployment' | 'build',
    read: () => Promise<{ id: string; finished: boolean }>,
  ) => {
    try {
      const latest = await read();
      const status = await seen(tool, kind, latest.id);
      if (status === 'new' || (status === 'primed' && !latest.finished)) {
        await deps.watches.start({ kind, tool, id: latest.id });
      }
      // Recorded after its watch was queued: "seen" means "being followed or done", never a gap in
      // which neither the set nor the queue knows about it (a crash here only re-queues the same
      // watch, whose job id and announcements are idempotent).
      await deps.redis.sadd(seenKey(tool, kind), latest.id);
    } catch (error) {
      if (error instanceof NotFoundError) {
        await deps.redis.sadd(seenKey(tool, kind), '-');
        return;
      }
      const message = error instanceof DeckhandError ? error.message : String(error);
      deps.logger.warn({ tool, kind, error: message }, 'discovery failed');
    }
  };

  return async (job: Job<{ tool: string }>): Promise<void> => {
    const { tool } = job.data;
    const subscriptions = (await deps.subscriptions.forTool(tool)).filter((s) => !s.broken);
    const wants = new Set(subscriptions.flatMap((s) => s.kinds));
    const client = deps.toolhost.forTool(tool);
    if (wants.has('deploys')) {
      await discover(tool, 'deployment', async () => {
        const d = await client.components.latestDeployment();
        return { id: d.deploy_id, finished: FINISHED_DEPLOYMENT_STATUSES.has(d.status) };
      });
    }
    if (wants.has('builds') && client.hasCertificate) {
      await discover(tool, 'build', async () => {
        const b = await client.builds.latest();
        return { id: b.build_id, finished: FINISHED_BUILD_STATUSES.has(b.status) };
      });
    }
    if (wants.has('jobs') && client.hasCertificate) {
      try {
        for (const job of await client.jobs.list()) {
          const short = job.status?.short;
          if (short !== 'failed' && short !== 'running') continue;
          const key = seenKeys(deps.prefix, tool).jobs;
          const [previous, serialText] = (await deps.redis.hget(key, job.name))?.split('|') ?? [];
          if (previous === short) continue;
          const serial = Number(serialText ?? 0) + 1;
          if (previous) {
            const event: WatchEvent = {
              tool,
              kind: 'job',
              id: job.name,
              from: previous,
              to: short,
              at: Date.now(),
              detail: `Job ${job.name} (${job.job_type}) is ${short}${job.status?.messages?.length ? `: ${job.status.messages.join(', ')}` : ''}.`,
              outcome: jobOutcome(job),
              terminal: false,
              serial,
              ...(short === 'failed' ? { failure: await jobFailureFacts(client, job) } : {}),
            };
            await deps.queues.notify.add('event', event, {
              jobId: notifyJobId(event),
              removeOnComplete: { age: 86_400 },
            });
          }
          await deps.redis.hset(key, job.name, `${short}|${serial}`);
        }
      } catch (error) {
        deps.logger.warn(
          { tool, error: error instanceof Error ? error.message : String(error) },
          'job discovery failed',
        );
      }
    }
  };
}
