import type { Logger } from 'pino';
import type { AppServices } from '../commands';
import type { App } from '../src/app';
import type { Config } from '../src/config';
import type { Platform } from '../src/core/conversation';
import type { CommandRegistry } from '../src/core/registry';
import type { DeliveryDeduper } from '../src/store/dedupe';
import type { WebServer } from '../src/web/server';

/** What an adapter gets when it starts. */
export interface AdapterContext {
  app: App;
  /** The one HTTP server: mount webhook routes here with `web.route(method, path, handler)`. */
  web: WebServer;
  config: Config;
  logger: Logger;
  /** At-most-once claims for platform re-deliveries. */
  deduper: DeliveryDeduper;
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
  /** File name under `manifest/`, e.g. `slack-app.json`. */
  file: string;
  /** Builds the manifest's JSON value (deterministic: a test compares it with the checked-in file). */
  build(registry: CommandRegistry<AppServices>, config: Config): unknown;
}

/** Registers the generated commands with the platform (`deckhand register <platform> [--guild ID]`). */
export type RegisterCommands = (
  registry: CommandRegistry<AppServices>,
  config: Config,
  options: { guild?: string; logger: Logger },
) => Promise<string>;
