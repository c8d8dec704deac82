/** The core and one chat adapter on Deckhand's web server, as the platform harnesses start them. */
import type { Logger } from 'pino';
import type { AdapterContext, PlatformAdapter } from '../../adapters/types';
import type { Config } from '../../src/config';
import type { AnyCommand } from '../../src/core/command';
import { DeliveryDeduper } from '../../src/store/dedupe';
import { WebServer } from '../../src/web/server';
import { type App, createApp } from '../../src/wiring';
import { closeAll } from './started';

/** What {@link startAdapterCore} starts, and how. */
export interface AdapterCoreOptions<A extends PlatformAdapter> {
  config: Config;
  logger: Logger;
  /** The process's role, as `deckhand start --role` sets it (`all` unless given). */
  role?: AdapterContext['role'];
  /** Whether the emulators run in this process (they do unless `false`). */
  sandbox?: boolean;
  /** Test-only commands, registered besides Deckhand's own. */
  commands?: readonly AnyCommand<never>[] | undefined;
  /** Runs on the core before the adapter is created (to seed it, or replace a part of it). */
  prepare?: ((app: App) => void) | undefined;
  /** The web server to serve on, when the harness needed its URL first; a new one otherwise. */
  web?: WebServer;
  /** Whether this process also runs the queue workers. */
  workers: boolean;
  /** Creates the adapter in the process's context (and mounts what else the web server serves). */
  create(context: AdapterContext): A;
}

/** A started core and adapter. */
export interface AdapterCore<A extends PlatformAdapter> {
  app: App;
  web: WebServer;
  adapter: A;
  /** Stops the adapter, closes the web server, then the core. */
  close(): Promise<void>;
}

/** Starts the core, registers the test commands, and creates and starts the adapter. */
export async function startAdapterCore<A extends PlatformAdapter>(
  options: AdapterCoreOptions<A>,
): Promise<AdapterCore<A>> {
  const { config, logger } = options;
  const app = await createApp({ config, logger, sandbox: options.sandbox ?? true });
  for (const command of options.commands ?? []) app.runner.registry.add(command as never);
  options.prepare?.(app);
  const web = options.web ?? new WebServer(logger);
  const deduper = new DeliveryDeduper(app.redis.requests, config.REDIS_KEY_PREFIX);
  const adapter = options.create({
    app,
    web,
    config,
    logger,
    deduper,
    requestPath: app.redis.requests,
    role: options.role ?? 'all',
  });
  await adapter.start();
  if (options.workers) app.startWorkers();
  return {
    app,
    web,
    adapter,
    async close() {
      await adapter.stop();
      await closeAll(web, app);
    },
  };
}
