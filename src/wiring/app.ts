import type { Logger } from 'pino';
import { type AppServices, MEDIA_UPLOAD_VIEW } from '../../commands';
import { toolListings } from '../../commands/toolhost/suggestions';
import type { Config } from '../config';
import { RedisEffectLedger } from '../coordination/effect-records';
import type { CardPublisher } from '../core/card-publisher';
import { CommandSurfaces } from '../core/command-job';
import type { CommandRunner } from '../core/command-runner';
import { FileResolvers } from '../core/files';
import type { AdapterHost } from '../core/host';
import { Messengers } from '../core/messenger';
import { CommandRegistry } from '../core/registry';
import { UNFURL_WINDOW_SECONDS } from '../core/unfurls';
import { useProcessLogger } from '../log';
import { LineOutboxes } from '../queue/line-outbox';
import { closeQueues, type Queues } from '../queue/queues';
import type { Workers } from '../queue/runtime';
import { CalendarService } from '../services/calendar';
import { ToolhostClientFactory } from '../services/toolhost';
import { DeliveryDeduper } from '../store/dedupe';
import { closeConnection, type RedisHandle } from '../store/redis';
import { cutBlockingCopies } from '../store/redis-link';
import { type Accounts, createAccounts } from './accounts';
import { type AdminLog, createAdminLog } from './admin-log';
import { assembleServices, openAppRedis, openState, runnerPorts, statePorts } from './app-services';
import { createPublisher, createRunner } from './commands';
import { type Emulators, startConfiguredEmulators, stopConfiguredEmulators } from './emulators';
import { configuredTools, sandboxToolList } from './known-tools';
import { type MediaSetup, setupMedia } from './media';
import type { ServiceModes, ServiceName } from './service-modes';
import { emulatedServices, serviceModes, withEmulatorSettings } from './service-modes';
import { limitToSandboxTools, SandboxToolhostFactory } from './toolhost';
import { startAppWorkers } from './workers';

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
 * A running Deckhand core: command runner, card publisher, services, state. It is the host adapters
 * attach to (the ports of `src/core/host.ts`, filled from Redis and the services).
 */
export interface App extends AdapterHost {
  /** Runs commands, clicks and forms. */
  runner: CommandRunner<AppServices>;
  /** Posts and edits cards in conversations (workers, web flows). */
  publisher: CardPublisher;
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
  /** The Server Admin Log (its link is `adminLogLink`, the adapters' port): the change pages to mount. */
  adminLog: AdminLog;
  /** Which services are real and which emulated (one rule, see service-modes.ts). */
  modes: ServiceModes;
  /** Runs the queue workers in this process (`--role worker|all`; the shell always does). */
  startWorkers(): void;
  /** Stops the workers, the queues, the sandbox and Redis. */
  close(): Promise<void>;
}

/**
 * Builds the core: Redis, the queues, the toolhost client (or the sandbox), the command runner and
 * the card publisher.
 */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, logger, emulated } = options;
  useProcessLogger(logger);
  const { redis, topology, queueConnection } = await openAppRedis(config, logger);
  const modes = serviceModes(config, options.sandbox);
  const reportedModes: ServiceModes = { ...modes };
  for (const name of emulated?.services ?? []) reportedModes[name] = 'emulator';
  let emulators: Emulators = {};
  let accounts: Accounts | undefined;
  let media: MediaSetup | undefined;
  try {
    emulators = await startConfiguredEmulators(config, emulatedServices(modes));
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
    const state = await openState({
      config,
      logger,
      connection: queueConnection,
      redis: redis.redis,
      prefix,
      compressed,
      // The embedded sandbox starts afresh each run: work queued against the last run's sandbox is moot.
      emptyQueues: compressed && !topology,
    });
    const { queues, bindings, timeZones, actions, languages } = state;
    const registry = new CommandRegistry<AppServices>();
    const publicUrl = () => accounts?.publicUrl() ?? '';
    const adminLog = createAdminLog({ config, logger, redis: redis.redis, prefix, publicUrl });
    const knownTools = configuredTools(config, sandboxToolList(sandbox, emulated));
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
      registry,
      knownTools,
      onChange: adminLog.onChange,
    });
    const linked = accounts;
    const messengers = new Messengers();
    const surfaces = new CommandSurfaces();
    const files = new FileResolvers();
    const secrets = linked.services.secrets;
    const publisher = createPublisher({ config, logger, actions, messengers, secrets, timeZones, languages });
    media = await setupMedia({
      config,
      logger,
      emulator: emulators.media,
      compressed: reportedModes.media === 'emulator',
      queue: queues.upload,
      files,
      view: MEDIA_UPLOAD_VIEW,
      cards: publisher,
      userKey: async (user) => {
        const own = await linked.services.credentials.media(user);
        return own?.origin === 'user' ? own.apiKey : undefined;
      },
    });
    const mediaSetup: MediaSetup = media;
    const parts = { config, logger, redis: redis.redis, prefix, state, toolhost, calendar, registry };
    const services = assembleServices({
      ...parts,
      accounts: linked,
      media: mediaSetup,
      adminLog: adminLog.service,
      config: withEmulatorSettings(config, emulators),
    });
    const runner = createRunner({
      registry,
      services,
      publisher,
      actions,
      bindings,
      secrets,
      locks: services.locks,
      policy: linked.policy,
      audit: linked.audit,
      identityOf: linked.identityOf,
      effects: new RedisEffectLedger(redis.redis, prefix),
      knownTools,
      unfurlClaims: new DeliveryDeduper(redis.requests, prefix, UNFURL_WINDOW_SECONDS),
    });
    let workers: Workers | undefined;
    const outboxes = new LineOutboxes(queueConnection, prefix, logger);
    // An adapter started after the workers: its announcements get their worker then.
    messengers.onRegister((platform) => workers?.deliverTo(platform));
    return {
      runner,
      publisher,
      services,
      messengers,
      redis,
      emulators,
      queues,
      accounts: linked,
      adminLog,
      adminLogLink: adminLog.link,
      modes: reportedModes,
      files,
      surfaces,
      suggestions: toolListings(services.toolhost, knownTools),
      ...statePorts(redis, prefix, linked.sealer, state),
      ...runnerPorts(runner),
      languages,
      outbox: (platform) => outboxes.of(platform),
      startWorkers() {
        workers ??= startAppWorkers({
          services,
          state,
          connection: queueConnection,
          redis: redis.redis,
          prefix,
          runner,
          publisher,
          surfaces,
          files,
          messengers,
          media: mediaSetup,
          accounts: linked,
          compressed,
        });
      },
      async close() {
        await workers?.close();
        await outboxes.close();
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
