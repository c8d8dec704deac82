import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../src/config';
import type { Platform } from '../src/core/conversation';
import type { AdapterHost, DeliveryDeduper, RouteRegistrar } from '../src/core/host';
import type { CommandRegistry } from '../src/core/registry';

/** What an adapter gets when it starts (built by `src/wiring/`). */
export interface AdapterContext {
  /** The running core, through its ports. */
  app: AdapterHost;
  /** The one HTTP server: mount webhook routes here with `web.route(method, path, handler)`. */
  web: RouteRegistrar;
  config: Config;
  logger: Logger;
  /** At-most-once claims for platform re-deliveries. */
  deduper: DeliveryDeduper;
  /**
   * The connection of the request path's first write (the delivery claim): a read sent on it in the
   * same turn as the claim travels with it, in one round trip. Keys start with `config.REDIS_KEY_PREFIX`.
   * Absent where a context is made by hand: `app.state` is used instead.
   */
  requestPath?: Redis;
  /**
   * `web` processes receive platform traffic; `worker` processes only need to post and edit messages
   * (register the messenger, receive nothing); `all` does both.
   */
  role: 'web' | 'worker' | 'all';
}

/** A running chat platform adapter. */
export interface PlatformAdapter {
  platform: Platform;
  /** Connects (gateway, socket, polling) and registers routes and the messenger. */
  start(): Promise<void>;
  /** Disconnects cleanly. */
  stop(): Promise<void>;
  /** For `/healthz`: connected and able to post. */
  healthy(): Promise<boolean>;
}

/** Creates an adapter when its platform is configured; `undefined` otherwise. */
export type AdapterFactory = (context: AdapterContext) => PlatformAdapter | undefined;

/** A manifest generated from the command registry and checked in under `manifest/`. */
export interface ManifestSpec {
  /** File name under `manifest/`, e.g. `<platform>-app.json`. */
  file: string;
  /** Builds the manifest's JSON value (deterministic: a test compares it with the checked-in file). */
  build(registry: CommandRegistry<unknown>, config: Config): unknown;
}

/** Registers the generated commands with the platform (`deckhand register <platform> [--guild ID]`). */
export type RegisterCommands = (
  registry: CommandRegistry<unknown>,
  config: Config,
  options: { guild?: string; logger: Logger },
) => Promise<string>;
