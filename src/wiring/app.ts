import type { Job, Processor } from 'bullmq';
import type { Logger } from 'pino';
import { ALL_COMMANDS, type AppServices, MEDIA_UPLOAD_VIEW, TAIL_VIEW, WATCH_KINDS } from '../../commands';
import { credentialVerdict } from '../../commands/accounts/credential-check';
import { digestCard } from '../../commands/calendar/calendar-digest';
import type { Config } from '../config';
import { RedisEffectLedger } from '../coordination/effect-records';
import { ResourceLocks } from '../coordination/locks';
import { platformForms } from '../core/command-form';
import { CommandSurfaces } from '../core/command-job';
import { parseConversationId } from '../core/conversation';
import { Dispatcher } from '../core/dispatch';
import { FileResolvers } from '../core/files';
import type { AdapterHost } from '../core/host';
import { Messengers } from '../core/messenger';
import { CommandRegistry } from '../core/registry';
import { useProcessLogger } from '../log';
import { createInterruptedNotice } from '../queue/command-interrupted';
import { createCommandProcessor, leaveLane } from '../queue/command-processor';
import { BullCommandQueue, type CommandJobData } from '../queue/command-queue';
import { createDigestProcessor } from '../queue/digest-processor';
import { DigestScheduler } from '../queue/digest-scheduler';
import { forgetDiscovered, scheduleDiscovery, unscheduleDiscovery } from '../queue/discover-processor';
import { registerQueueDepth } from '../queue/queue-metrics';
import { closeQueues, openQueues, type Queues } from '../queue/queues';
import { rearmSchedulers, savedDigests } from '../queue/rearm';
import { startWorkers, type Workers } from '../queue/runtime';
import { createTailProcessor } from '../queue/tail-processor';
import { QueueTailService } from '../queue/tail-service';
import { QueueWatchService } from '../queue/watch-service';
import { CalendarService } from '../services/calendar';
import { ToolhostClientFactory } from '../services/toolhost';
import { RedisActionStore } from '../store/actions';
import { RedisBindingStore } from '../store/bindings';
import { logConnectionErrors } from '../store/connection-errors';
import { ConversationMove } from '../store/conversation-move';
import { DeliveryDeduper } from '../store/dedupe';
import { prepareKeyLayout } from '../store/key-migration';
import { RedisKeyValue, valueSealer } from '../store/key-value';
import { closeConnection, openRedis, type RedisHandle } from '../store/redis';
import { cutBlockingCopies, withBlockingCopies } from '../store/redis-link';
import { redisTopology } from '../store/redis-topology';
import { SubscriptionStore } from '../store/subscriptions';
import { RedisTimeZoneStore } from '../store/time-zones';
import { type Accounts, createAccounts } from './accounts';
import { type Emulators, startConfiguredEmulators, stopConfiguredEmulators } from './emulators';
import { configuredTools } from './known-tools';
import { type MediaSetup, setupMedia } from './media';
import { type ServiceModes, type ServiceName, serviceModes } from './service-modes';
import { limitToSandboxTools, SandboxToolhostFactory } from './toolhost';

/** Commands one worker process runs at once (they wait on the network, within their bulkheads). */
const COMMAND_CONCURRENCY = 200;

/** Options of {@link createApp}. */
export interface AppOptions {
  config: Config;
  logger: Logger;
  /** Use the embedded emulators for the external services. */
  sandbox: boolean;
  /** Users who are admins in addition to `ADMINS` (the shell's own user). */
  extraAdmins?: string[];
  /**
   * Emulators running in another process (`start --sandbox` with a chat platform, sandbox-child.ts),
   * reached through the URLs in `config`: reported as emulated, paced by `SANDBOX_STEP_MS`.
   */
  emulated?: {
    services: readonly ServiceName[];
    /** The tool platform emulator's tools and web addresses. */
    tools: readonly string[];
    toolUrl: ((tool: string) => string) | undefined;
  };
}

/**
 * A running Deckhand core: dispatcher, services, state. It is the host adapters attach to (the
 * ports of `src/core/host.ts`, filled from Redis and the services).
 */
export interface App extends AdapterHost {
  dispatcher: Dispatcher<AppServices>;
  services: AppServices;
  messengers: Messengers;
  redis: RedisHandle;
  /** The emulators running in this process, by service (sandbox mode, services without a URL). */
  emulators: Emulators;
  /** How files users sent can be reopened from any process (adapters register their platform). */
  files: FileResolvers;
  queues: Queues;
  /** Account linking: the web routes to mount, the public URL once listening. */
  accounts: Accounts;
  /** Which services are real and which emulated (one rule, see service-modes.ts). */
  modes: ServiceModes;
  /** Runs the queue workers in this process (`--role worker|all`; the shell always does). */
  startWorkers(): void;
  /** Stops the workers, the queues, the sandbox and Redis. */
  close(): Promise<void>;
}

/** Builds the core: Redis, the queues, the toolhost client (or the sandbox) and the dispatcher. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, logger } = options;
  useProcessLogger(logger);
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
  const modes = serviceModes(config, options.sandbox);
  const emulated = options.emulated;
  const reportedModes: ServiceModes = { ...modes };
  for (const name of emulated?.services ?? []) reportedModes[name] = 'emulator';
  let emulators: Emulators = {};
  let accounts: Accounts | undefined;
  let media: MediaSetup | undefined;
  try {
    emulators = await startConfiguredEmulators(
      config,
      (Object.keys(modes) as ServiceName[]).filter((name) => modes[name] === 'emulator'),
    );
    const { toolhost: sandbox, calendar: calendarSandbox } = emulators;
    const calendar = calendarSandbox
      ? CalendarService.forSandbox(calendarSandbox, { timeoutMs: config.CALENDAR_TIMEOUT_MS })
      : CalendarService.fromConfig(config);
    const toolhost = sandbox
      ? new SandboxToolhostFactory(sandbox, config.TOOLHOST_TIMEOUT_MS)
      : ToolhostClientFactory.fromConfig(config, {
          onWarning: (text) => logger.warn({ warning: text }, 'toolhost warning'),
          ...(emulated?.toolUrl ? { publicUrl: emulated.toolUrl } : {}),
        });
    if (!sandbox && emulated?.tools.length) limitToSandboxTools(toolhost, emulated.tools);
    // The tool platform's emulator, here or in its own process: its time runs at SANDBOX_STEP_MS.
    const compressed = Boolean(sandbox) || Boolean(emulated?.services.includes('toolhost'));
    const prefix = config.REDIS_KEY_PREFIX;
    const queues = openQueues(queueConnection, prefix);
    for (const [name, queue] of Object.entries(queues)) logConnectionErrors(queue, logger, `queue ${name}`);
    const digests = new DigestScheduler(queues.digest);
    // The digests are their schedulers: read before the queues may be emptied, set again below.
    const keptDigests = await savedDigests(digests);
    if (compressed && !topology) {
      // The embedded sandbox starts afresh each run: work queued against the last run's sandbox is moot.
      await Promise.all(Object.values(queues).map((queue) => queue.obliterate({ force: true })));
    }
    registerQueueDepth(queues);
    accounts = await createAccounts({
      config,
      logger,
      redis: redis.redis,
      prefix,
      sandbox: options.sandbox,
      sourcehostEmulator: emulators.sourcehost,
      toolhost,
      queues,
      extraAdmins: options.extraAdmins ?? [],
    });
    const linked = accounts;
    const bindings = new RedisBindingStore(redis.redis, prefix);
    const timeZones = new RedisTimeZoneStore(redis.redis, prefix);
    const subscriptions = new SubscriptionStore(redis.redis, prefix);
    const watches = new QueueWatchService(queues, redis.redis, prefix);
    const tails = new QueueTailService(queues, redis.redis, prefix);
    const discoveryEveryMs = compressed
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
    const messengers = new Messengers();
    const surfaces = new CommandSurfaces();
    const registry = new CommandRegistry<AppServices>();
    const files = new FileResolvers();
    media = await setupMedia({
      config,
      logger,
      emulator: emulators.media,
      compressed: reportedModes.media === 'emulator',
      queue: queues.upload,
      files,
      view: MEDIA_UPLOAD_VIEW,
      updateCard: (handle, card) => dispatcher.update(handle, card),
      userKey: async (user) => {
        const own = await linked.services.credentials.media(user);
        return own?.origin === 'user' ? own.apiKey : undefined;
      },
    });
    const mediaSetup = media;
    const services: AppServices = {
      config,
      logger,
      toolhost,
      bindings,
      timeZones,
      registry,
      watches,
      tails,
      subscriptions,
      accounts: linked.services,
      discovery: {
        schedule: (tool) => scheduleDiscovery(queues, tool, discoveryEveryMs),
        unschedule: (tool) => unscheduleDiscovery(queues, tool),
        forget: (tool, kinds) => forgetDiscovered(redis.redis, prefix, tool, kinds),
      },
      calendar,
      digests,
      media: mediaSetup.media,
      uploads: mediaSetup.uploads,
      locks: new ResourceLocks(redis.redis, prefix),
    };
    // A user's own calendar account (linked with /link calendar) wins over the bot-wide one.
    calendar.useCredentialSource({
      async credentialsFor(user) {
        const own = await linked.services.credentials.calendar(user);
        return own?.origin === 'user'
          ? { user: own.username, appPassword: own.applicationPassword }
          : undefined;
      },
    });
    const actions = new RedisActionStore(redis.redis, prefix);
    const locks = services.locks;
    const dispatcher = new Dispatcher<AppServices>({
      exclusive: (resource, work) => locks.withLock(resource, work),
      effects: new RedisEffectLedger(redis.redis, prefix),
      registry,
      services,
      actions,
      bindings,
      timeZones,
      policy: linked.policy,
      audit: linked.audit,
      messengers,
      logger,
      secrets: linked.services.secrets,
      knownTools: configuredTools(
        config,
        sandbox ? () => sandbox?.ctx.tools ?? [] : emulated?.tools.length ? () => emulated.tools : undefined,
      ),
      commandForms: platformForms(config.SLACK_COMMAND, [
        ...new Set(ALL_COMMANDS.map((c) => c.name.split(' ')[0] as string)),
      ]),
    });
    for (const command of ALL_COMMANDS) registry.add(command);
    linked.attach(dispatcher, messengers, (kind, values, tool) =>
      credentialVerdict(services, kind, values, tool),
    );
    const basePollMs = compressed
      ? Math.max(10, Math.min(config.WATCH_POLL_MS, Math.round(config.SANDBOX_STEP_MS / 3)))
      : config.WATCH_POLL_MS;
    let workers: Workers | undefined;
    // An adapter started after the workers: its announcements get their worker then.
    messengers.onRegister((platform) => workers?.deliverTo(platform));
    const started = sandbox;
    return {
      dispatcher,
      services,
      messengers,
      redis,
      emulators,
      queues,
      accounts: linked,
      modes: reportedModes,
      files,
      commandQueue: new BullCommandQueue(queues.commands, redis.redis, prefix),
      surfaces,
      sandboxTools: sandbox
        ? () => started?.ctx.tools ?? []
        : emulated?.tools.length
          ? () => emulated.tools
          : undefined,
      claims: (seconds) => new DeliveryDeduper(redis.requests, prefix, seconds),
      actions,
      keyValue: (namespace, options) =>
        new RedisKeyValue(redis.redis, prefix, namespace, options?.sealed ? linked.sealer : undefined),
      sealer: valueSealer(linked.sealer),
      conversations: new ConversationMove({ bindings, timeZones, subscriptions, digests: services.digests }),
      state: redis.redis,
      startWorkers() {
        const interrupted = createInterruptedNotice({
          dispatcher: dispatcher as Dispatcher<unknown>,
          surfaces,
          files,
          redis: redis.redis,
          prefix,
          logger,
        });
        workers ??= startWorkers<AppServices>({
          queues,
          connection: queueConnection,
          keyPrefix: prefix,
          redis: redis.redis,
          kinds: WATCH_KINDS,
          services,
          toolhost,
          watches,
          subscriptions,
          updateCard: (handle, card) => dispatcher.update(handle, card),
          postCard: (conversationId, card) =>
            dispatcher.post(conversationId, parseConversationId(conversationId).platform, card),
          postInThread: (parent, card) => dispatcher.postInThread(parent, card),
          logger,
          basePollMs,
          maxPollMs: Math.max(basePollMs, 15_000),
          maxAgeMs: config.WATCH_MAX_MINUTES * 60_000,
          lockMs: config.QUEUE_LOCK_MS,
          platforms: messengers.platforms(),
          extra: {
            commands: {
              processor: createCommandProcessor({
                dispatcher: dispatcher as Dispatcher<unknown>,
                surfaces,
                files,
                queue: queues.commands,
                redis: redis.redis,
                prefix,
                logger,
                deadlineMs: config.COMMAND_DEADLINE_MS,
              }) as Processor,
              // Upstream requests are limited per service and per tool (services/bulkhead.ts), far
              // below this: a silent service fills its compartments, not the command worker.
              concurrency: COMMAND_CONCURRENCY,
              // A worker that died mid-command: the command runs once more, never a third time.
              maxStalledCount: 1,
              onFailed: async (job) => {
                const failed = job as never as Job<CommandJobData>;
                await leaveLane(redis.redis, prefix, failed);
                await interrupted(failed);
              },
            },
            upload: { processor: mediaSetup.processor(), concurrency: 20 },
            migration: {
              processor: linked.migrationProcessor({
                services,
                updateCard: (handle, card) => dispatcher.update(handle, card),
                postCard: (conversationId, card) =>
                  dispatcher.post(conversationId, parseConversationId(conversationId).platform, card),
                basePollMs,
                maxAgeMs: config.WATCH_MAX_MINUTES * 60_000,
              }),
              concurrency: 20,
            },
            tail: {
              processor: createTailProcessor({
                toolhost,
                tails,
                view: TAIL_VIEW,
                updateCard: (handle, card) => dispatcher.update(handle, card),
                scrub: (lines, tool) => linked.services.secrets.scrubTexts(lines, { tool, untrusted: 'all' }),
                logger,
                editMs: config.TAIL_EDIT_MS,
                maxMs: config.TAIL_MAX_MINUTES * 60_000,
              }) as Processor,
              concurrency: 100,
            },
            digest: {
              processor: createDigestProcessor({
                build: (data) => digestCard(calendar, data),
                post: (conversationId, card) =>
                  dispatcher.post(conversationId, parseConversationId(conversationId).platform, card),
                remove: (conversationId) => services.digests.remove(conversationId),
                logger,
              }) as Processor,
              concurrency: 5,
            },
          },
        });
      },
      async close() {
        await workers?.close();
        // The blocking copies of workers that did not close in time (see WORKER_CLOSE_GRACE_MS).
        cutBlockingCopies(queueConnection);
        await closeQueues(queues);
        await toolhost.close();
        await linked.close();
        await calendar.close();
        await mediaSetup.close();
        await stopConfiguredEmulators(emulators);
        await closeConnection(queueConnection);
        await redis.close();
      },
    };
  } catch (error) {
    await media?.close();
    await accounts?.close();
    await stopConfiguredEmulators(emulators);
    queueConnection.disconnect();
    await redis.close();
    throw error;
  }
}
