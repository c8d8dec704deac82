import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Config } from '../src/config';
import type { BindingStore } from '../src/core/actions';
import { type CommandDefinition, defineCommand } from '../src/core/command';
import type { CommandRegistry } from '../src/core/registry';
import type { TailService } from '../src/core/tail';
import type { WatchService } from '../src/core/watch';
import type { ToolhostClientFactory } from '../src/services/toolhost';
import type { SubscriptionStore } from '../src/store/subscriptions';

/** What every command can use. Built once per process by `src/app.ts`. */
export interface AppServices {
  config: Config;
  logger: Logger;
  toolhost: ToolhostClientFactory;
  watches: WatchService;
  bindings: BindingStore;
  /** Which conversations want to hear about which tools. */
  subscriptions: SubscriptionStore;
  /** Periodic discovery of builds and deployments started outside the bot, per subscribed tool. */
  discovery: { schedule(tool: string): Promise<void>; unschedule(tool: string): Promise<void> };
  /** Live log tails (`--follow`). */
  tails: TailService;
  /** The command registry itself (for /help). */
  registry: CommandRegistry<AppServices>;
}

/** `defineCommand` bound to {@link AppServices}. */
export function command<Schema extends z.ZodObject>(
  definition: CommandDefinition<Schema, AppServices>,
): CommandDefinition<Schema, AppServices> {
  return defineCommand(definition);
}
