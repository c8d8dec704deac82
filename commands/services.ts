import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Config } from '../src/config';
import type { ResourceLocks } from '../src/coordination/locks';
import type { BindingStore } from '../src/core/actions';
import {
  type CommandDeclaration,
  type CommandDefinition,
  defineCommand,
  type NoArgs,
} from '../src/core/command';
import type { LanguageStore } from '../src/core/languages';
import type { PersonalNotifications } from '../src/core/personal-notify';
import type { CommandRegistry } from '../src/core/registry';
import type { TailService } from '../src/core/tail';
import type { TimeZoneStore } from '../src/core/times';
import type { WatchService } from '../src/core/watch';
import type { DigestScheduler } from '../src/queue/digest-scheduler';
import type { UploadService } from '../src/queue/upload-service';
import type { CalendarService } from '../src/services/calendar';
import type { MediaService } from '../src/services/media';
import type { ToolhostClientFactory } from '../src/services/toolhost';
import type { SubscriptionKind, SubscriptionStore } from '../src/store/subscriptions';
import type { AccountServices } from './link-services';
import type { AdminLogService } from './toolhost/sal/service';

/** What every command can use. Built once per process by `src/app.ts`. */
export interface AppServices {
  config: Config;
  logger: Logger;
  toolhost: ToolhostClientFactory;
  watches: WatchService;
  bindings: BindingStore;
  /** Each conversation's time zone (`/timezone`). */
  timeZones: TimeZoneStore;
  /** The `/language` settings of users and conversations. */
  languages?: LanguageStore;
  /** Which conversations want to hear about which tools. */
  subscriptions: SubscriptionStore;
  /** Periodic discovery of builds and deployments started outside the bot, per subscribed tool. */
  discovery: {
    schedule(tool: string): Promise<void>;
    unschedule(tool: string): Promise<void>;
    /**
     * Forgets what discovery saw of these kinds of a tool, so its next look only records what
     * exists (announcing nothing older). For kinds no conversation was following.
     */
    forget(tool: string, kinds: readonly SubscriptionKind[]): Promise<void>;
  };
  /** Live log tails (`--follow`). */
  tails: TailService;
  /** The command registry itself (for /help). */
  registry: CommandRegistry<AppServices>;
  /** The event calendar: a client per chat user (`forUser`), the site's details. */
  calendar: CalendarService;
  /** Scheduled calendar digests, one per conversation. */
  digests: DigestScheduler;
  /** Linked accounts, the credential vault, the source host and the audit trail. */
  accounts: AccountServices;
  /** Media host clients per chat user (`forUser`). */
  media: MediaService;
  /** File and remote uploads to the media host, on the queue. */
  uploads: UploadService;
  /** One start at a time per resource across processes (deployments, builds), and records of what was started. */
  locks: ResourceLocks;
  /** The Server Admin Log: its channel, its default, each tool's setting (`/tool sal`). */
  adminLog: AdminLogService;
  /** Each person's notification settings (`/notify`), kept with their linked identity. */
  notifications: PersonalNotifications;
}

/** `defineCommand` bound to {@link AppServices}. */
export function command<Schema extends z.ZodObject = NoArgs>(
  declaration: CommandDeclaration<Schema, AppServices>,
): CommandDefinition<Schema, AppServices> {
  return defineCommand(declaration);
}

/**
 * `defineCommand` for a command group that sees only `Keys` of the services (its context): a group
 * declares what it uses, and a command of it cannot reach the rest. The registry still holds every
 * command with the whole {@link AppServices}, of which each group's view is a part.
 */
export function commandsWith<Keys extends keyof AppServices>(): <Schema extends z.ZodObject = NoArgs>(
  declaration: CommandDeclaration<Schema, Pick<AppServices, Keys>>,
) => CommandDefinition<Schema, Pick<AppServices, Keys>> {
  return (declaration) => defineCommand(declaration);
}
