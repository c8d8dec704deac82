import type { Logger } from 'pino';
import { ALL_COMMANDS, type AppServices, WATCH_KINDS } from '../commands';
import type { Config } from './config';
import { ConfigPolicy } from './core/config-policy';
import { Dispatcher } from './core/dispatch';
import { UsageError } from './core/errors';
import { Messengers } from './core/messenger';
import { CommandRegistry } from './core/registry';
import { InProcessWatcher } from './queue/inprocess-watcher';
import { startToolhostSandbox, type ToolhostSandbox } from './sandbox/toolhost';
import { type ForToolOptions, type ToolhostClient, ToolhostClientFactory } from './services/toolhost';
import { RedisActionStore } from './store/actions';
import { RedisBindingStore } from './store/bindings';
import { openRedis, type RedisHandle } from './store/redis';

/** Options of {@link createApp}. */
export interface AppOptions {
  config: Config;
  logger: Logger;
  /** Use the embedded emulators for the external services. */
  sandbox: boolean;
  /** Users who are admins in addition to `ADMINS` (the shell's own user). */
  extraAdmins?: string[];
}

/** A running Deckhand core: dispatcher, services, state. Adapters attach to it. */
export interface App {
  dispatcher: Dispatcher<AppServices>;
  services: AppServices;
  messengers: Messengers;
  redis: RedisHandle;
  sandbox: ToolhostSandbox | undefined;
  /** Stops watches, the sandbox and Redis. */
  close(): Promise<void>;
}

/** In the sandbox, an unknown tool is a usage error that names the tools that exist. */
class SandboxToolhostFactory extends ToolhostClientFactory {
  constructor(
    private readonly sandbox: ToolhostSandbox,
    timeoutMs: number,
  ) {
    super({
      externalUrl: sandbox.externalUrl,
      internalUrl: sandbox.internalUrl,
      ca: sandbox.ca,
      certificates: (tool) => (sandbox.ctx.tools.has(tool) ? sandbox.certFor(tool) : undefined),
      timeoutMs,
    });
  }

  override forTool(tool: string, options?: ForToolOptions): ToolhostClient {
    if (!this.sandbox.ctx.tools.has(tool)) {
      const known = [...this.sandbox.ctx.tools].sort().join(', ');
      throw new UsageError(`There is no tool ${tool} on the sandbox platform.`, {
        hint: `Its tools are: ${known}.`,
      });
    }
    return super.forTool(tool, options);
  }
}

/** Builds the core: Redis, the toolhost client (or the sandbox), the dispatcher and the watcher. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, logger } = options;
  const redis = await openRedis({
    ...(config.REDIS_URL ? { url: config.REDIS_URL } : {}),
    dataDir: config.DATA_DIR,
    logger,
  });
  let sandbox: ToolhostSandbox | undefined;
  try {
    sandbox = options.sandbox ? await startToolhostSandbox({ stepMs: config.SANDBOX_STEP_MS }) : undefined;
    const toolhost = sandbox
      ? new SandboxToolhostFactory(sandbox, config.TOOLHOST_TIMEOUT_MS)
      : ToolhostClientFactory.fromConfig(config, {
          onWarning: (text) => logger.warn({ warning: text }, 'toolhost warning'),
        });
    const prefix = config.REDIS_KEY_PREFIX;
    const bindings = new RedisBindingStore(redis.redis, prefix);
    const messengers = new Messengers();
    const registry = new CommandRegistry<AppServices>();
    // `watches` is set below: the watcher needs the services, and the services the watcher.
    const services = { config, logger, toolhost, bindings, registry } as Omit<
      AppServices,
      'watches'
    > as AppServices;
    const dispatcher = new Dispatcher<AppServices>({
      registry,
      services,
      actions: new RedisActionStore(redis.redis, prefix),
      bindings,
      policy: new ConfigPolicy({
        admins: [...config.ADMINS, ...(options.extraAdmins ?? [])],
        maintainers: config.TOOL_MAINTAINERS,
      }),
      messengers,
      logger,
    });
    const basePollMs = sandbox
      ? Math.max(10, Math.min(config.WATCH_POLL_MS, Math.round(config.SANDBOX_STEP_MS / 3)))
      : config.WATCH_POLL_MS;
    const watcher = new InProcessWatcher<AppServices>({
      kinds: WATCH_KINDS,
      services,
      updateCard: (handle, card) => dispatcher.update(handle, card),
      logger,
      basePollMs,
      maxPollMs: Math.max(basePollMs, 15_000),
      maxAgeMs: config.WATCH_MAX_MINUTES * 60_000,
    });
    services.watches = watcher;
    for (const command of ALL_COMMANDS) registry.add(command);
    const started = sandbox;
    return {
      dispatcher,
      services,
      messengers,
      redis,
      sandbox,
      async close() {
        watcher.stop();
        await toolhost.close();
        await started?.close();
        await redis.close();
      },
    };
  } catch (error) {
    await sandbox?.close();
    await redis.close();
    throw error;
  }
}
