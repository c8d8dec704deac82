/**
 * The state and services of the application, built by `createApp`: the queues (emptied first for a
 * fresh embedded sandbox, their schedulers set up again), the Redis stores, and the services every
 * command can use.
 */

import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type AppServices, HOME_LINE } from '../../commands';
import type { AdminLogService } from '../../commands/toolhost/sal/service';
import type { Config } from '../config';
import { ResourceLocks } from '../coordination/locks';
import type { CommandRunner } from '../core/command-runner';
import type { AdapterHost } from '../core/host';
import { keptAnswers } from '../core/kept-answers';
import type { CommandRegistry } from '../core/registry';
import { BullCommandQueue } from '../queue/command-queue';
import { DigestScheduler } from '../queue/digest-scheduler';
import { forgetDiscovered, scheduleDiscovery, unscheduleDiscovery } from '../queue/discover-processor';
import { registerQueueDepth } from '../queue/queue-metrics';
import { openQueues, type Queues } from '../queue/queues';
import { rearmSchedulers, savedDigests } from '../queue/rearm';
import { QueueTailService } from '../queue/tail-service';
import { QueueWatchService } from '../queue/watch-service';
import type { CalendarService } from '../services/calendar';
import type { ToolhostClientFactory } from '../services/toolhost';
import { RedisActionStore } from '../store/actions';
import { RedisBindingStore } from '../store/bindings';
import { logConnectionErrors } from '../store/connection-errors';
import { ConversationMove } from '../store/conversation-move';
import { DeliveryDeduper } from '../store/dedupe';
import { prepareKeyLayout } from '../store/key-migration';
import { RedisKeyValue, valueSealer } from '../store/key-value';
import { RedisLanguageStore } from '../store/languages';
import { RedisNotifySettings } from '../store/notify-settings';
import { openRedis, type RedisHandle } from '../store/redis';
import { withBlockingCopies } from '../store/redis-link';
import { redisTopology } from '../store/redis-topology';
import type { Sealer } from '../store/sealer';
import { SubscriptionStore } from '../store/subscriptions';
import { RedisTimeZoneStore } from '../store/time-zones';
import type { Accounts } from './accounts';
import type { MediaSetup } from './media';
import { PLATFORMS } from './platforms';

/** Redis as the application uses it: the request-path connection and the queues' own. */
export interface AppRedis {
  redis: RedisHandle;
  /** The configured Redis topology (undefined: the embedded Redis). */
  topology: ReturnType<typeof redisTopology>;
  /** The queues' connection, with blocking copies for the workers. */
  queueConnection: Redis;
}

/** Opens Redis and brings its key layout up to date (closed again when that fails). */
export async function openAppRedis(config: Config, logger: Logger): Promise<AppRedis> {
  const topology = redisTopology(config);
  const redis = await openRedis({ topology, dataDir: config.DATA_DIR, logger });
  try {
    await prepareKeyLayout(redis, config.REDIS_KEY_PREFIX, logger);
  } catch (error) {
    await redis.close();
    throw error;
  }
  const queueConnection = withBlockingCopies(redis.connect({ maxRetriesPerRequest: null }));
  logConnectionErrors(queueConnection, logger, 'queues');
  return { redis, topology, queueConnection };
}

/** The queues with the stores kept in Redis. */
export interface AppState {
  queues: Queues;
  digests: DigestScheduler;
  subscriptions: SubscriptionStore;
  bindings: RedisBindingStore;
  timeZones: RedisTimeZoneStore;
  languages: RedisLanguageStore;
  actions: RedisActionStore;
  watches: QueueWatchService;
  tails: QueueTailService;
  /** How often a subscribed tool is searched for builds and deployments started elsewhere. */
  discoveryEveryMs: number;
}

/** What {@link openState} needs. */
export interface StateOptions {
  config: Config;
  logger: Logger;
  /** The queues' connection (with blocking copies for the workers). */
  connection: Redis;
  redis: Redis;
  prefix: string;
  /** The tool platform is emulated: its time runs at `SANDBOX_STEP_MS`. */
  compressed: boolean;
  /** Empty the queues first (an embedded sandbox starts afresh: older work is moot). */
  emptyQueues: boolean;
}

/** Opens the queues and the stores; the schedulers of stored subscriptions and digests are set again. */
export async function openState(options: StateOptions): Promise<AppState> {
  const { config, logger, redis, prefix } = options;
  const queues = openQueues(options.connection, prefix);
  for (const [name, queue] of Object.entries(queues)) logConnectionErrors(queue, logger, `queue ${name}`);
  const digests = new DigestScheduler(queues.digest);
  // The digests are their schedulers: read before the queues may be emptied, set again below.
  const keptDigests = await savedDigests(digests);
  if (options.emptyQueues) {
    await Promise.all(Object.values(queues).map((queue) => queue.obliterate({ force: true })));
  }
  registerQueueDepth(queues);
  const subscriptions = new SubscriptionStore(redis, prefix);
  const discoveryEveryMs = options.compressed
    ? Math.max(200, config.SANDBOX_STEP_MS)
    : config.DISCOVERY_INTERVAL_MS;
  const rearmed = await rearmSchedulers(
    {
      subscriptions,
      digests,
      scheduleDiscovery: (tool) => scheduleDiscovery(queues, tool, discoveryEveryMs),
    },
    keptDigests,
  );
  logger.debug(rearmed, 'schedulers set up again from the stored subscriptions and digests');
  return {
    queues,
    digests,
    subscriptions,
    bindings: new RedisBindingStore(redis, prefix),
    timeZones: new RedisTimeZoneStore(redis, prefix),
    languages: new RedisLanguageStore(redis, prefix),
    actions: new RedisActionStore(redis, prefix),
    watches: new QueueWatchService(queues, redis, prefix),
    tails: new QueueTailService(queues, redis, prefix),
    discoveryEveryMs,
  };
}

/** The ports an adapter reaches that are Redis-backed state (see `src/core/host.ts`). */
export type StatePorts = Pick<
  AdapterHost,
  'commandQueue' | 'claims' | 'actions' | 'keyValue' | 'sealer' | 'conversations' | 'state'
>;

/** The adapters' state ports, over the request-path connection and the queues. */
export function statePorts(redis: RedisHandle, prefix: string, sealer: Sealer, state: AppState): StatePorts {
  const { bindings, timeZones, subscriptions, digests } = state;
  return {
    commandQueue: new BullCommandQueue(state.queues.commands, redis.redis, prefix),
    claims: (seconds) => new DeliveryDeduper(redis.requests, prefix, seconds),
    actions: state.actions,
    keyValue: (namespace, options) =>
      new RedisKeyValue(redis.redis, prefix, namespace, options?.sealed ? sealer : undefined),
    sealer: valueSealer(sealer),
    conversations: new ConversationMove({ bindings, timeZones, subscriptions, digests }),
    state: redis.redis,
  };
}

/** The ports an adapter reaches that the command runner answers: link unfurls and the home view. */
export function runnerPorts(runner: CommandRunner<AppServices>): Pick<AdapterHost, 'unfurl' | 'home'> {
  return {
    unfurl: (seen) => runner.unfurl(seen),
    home: (invocation) =>
      keptAnswers((line, who, surface) => runner.handleText(line, who, surface), HOME_LINE, invocation),
  };
}

/** What {@link assembleServices} puts together. */
export interface ServiceParts {
  config: Config;
  logger: Logger;
  redis: Redis;
  prefix: string;
  state: AppState;
  toolhost: ToolhostClientFactory;
  calendar: CalendarService;
  registry: CommandRegistry<AppServices>;
  accounts: Accounts;
  media: MediaSetup;
  adminLog: AdminLogService;
}

/** The services every command can use; a user's own calendar account wins over the bot-wide one. */
export function assembleServices(parts: ServiceParts): AppServices {
  const { redis, prefix, state, accounts, calendar } = parts;
  const { queues, discoveryEveryMs } = state;
  // A user's own calendar account (linked with /link calendar) wins over the bot-wide one.
  calendar.useCredentialSource({
    async credentialsFor(user) {
      const own = await accounts.services.credentials.calendar(user);
      return own?.origin === 'user'
        ? { user: own.username, appPassword: own.applicationPassword }
        : undefined;
    },
  });
  return {
    config: parts.config,
    logger: parts.logger,
    toolhost: parts.toolhost,
    bindings: state.bindings,
    timeZones: state.timeZones,
    languages: state.languages,
    registry: parts.registry,
    watches: state.watches,
    tails: state.tails,
    subscriptions: state.subscriptions,
    accounts: accounts.services,
    discovery: {
      schedule: (tool) => scheduleDiscovery(queues, tool, discoveryEveryMs),
      unschedule: (tool) => unscheduleDiscovery(queues, tool),
      forget: (tool, kinds) => forgetDiscovered(redis, prefix, tool, kinds),
    },
    calendar,
    digests: state.digests,
    media: parts.media.media,
    uploads: parts.media.uploads,
    locks: new ResourceLocks(redis, prefix),
    adminLog: parts.adminLog,
    notifications: new RedisNotifySettings(
      redis,
      prefix,
      accounts.identityOf,
      PLATFORMS.filter((platform) => platform.directMessages).map((platform) => ({
        name: platform.name,
        displayName: platform.displayName,
        note: platform.directMessages?.note,
      })),
    ),
  };
}
