/**
 * What the rest of Deckhand knows about a chat platform, without loading its SDK: each
 * `adapters/<platform>/index.ts` exports one descriptor, and `adapters/platforms.ts` lists them.
 * Config, wiring, the CLI and `deckhand doctor` iterate over that table; nothing outside
 * `adapters/<platform>/` and the table names a platform.
 */
import type { Config } from '../src/config';
import type { EnvFragment } from '../src/config-schema';
import { DEFAULT_SEND_BUDGET, type SendBudget } from '../src/core/send-budget';
import type { MessageKey, Translator } from '../src/i18n/translate';
import type { CheckResult } from './doctor-kit';
import type { AdapterFactory, ManifestSpec, RegisterCommands } from './types';

export type { SendBudget, SendRate } from '../src/core/send-budget';
export { channelScope, perChannel, UNLIMITED_SEND_BUDGET } from '../src/core/send-budget';

/** What a process does: receive platform traffic (`web`), post and edit (`worker`), or both. */
export type Role = 'web' | 'worker' | 'all';

/** The network checks `deckhand doctor` runs for one configured platform (loaded only by `doctor`). */
export interface PlatformDoctor {
  /** Are the credentials valid? */
  credentials(config: Config): Promise<CheckResult>;
  /**
   * Do the platform's registered delivery URLs agree with how Deckhand receives? `credentialsPassed`:
   * the credentials line passed (a platform whose credentials failed is not asked again).
   */
  deliveries?(config: Config, credentialsPassed: boolean): Promise<CheckResult>;
}

/** One chat platform, as the rest of the program sees it. */
export interface PlatformDescriptor<Name extends string = string, Env extends EnvFragment = EnvFragment> {
  /** The id in conversation ids, user ids (`<name>:U0123ABCD`), queue names and CLI arguments. */
  name: Name;
  /** The name people read, capitalised as the platform writes it. */
  displayName: string;
  /** What the platform calls a workspace, when it has one (`server`): "user ada in server 1". */
  workspaceWord?: string;
  /** It installs into several workspaces and keeps their installations (sealed with `SECRET_KEY`). */
  storesInstallations?: boolean;
  /** A user id of the platform, for examples in messages (`U0123ABCD`). */
  exampleUserId: string;
  /** Its environment variables, merged into the configuration schema (`src/config.ts`). */
  env: Env;
  /** Whether its adapter runs: its credentials are configured. */
  configured(config: Config): boolean;
  /**
   * What is missing when it is set up half-way, naming the variables to set (`start` refuses to run,
   * `doctor` fails); `undefined` when it is fully configured or not at all.
   */
  missing(config: Config, role: Role): string | undefined;
  /** Loads the adapter factory (and with it the SDK); absent for a platform that `start` does not serve. */
  load?(): Promise<AdapterFactory>;
  /** Loads the manifest generated from the command registry (`deckhand manifest <name>`). */
  manifest?(): Promise<ManifestSpec | undefined>;
  /** Loads the command registration (`deckhand register <name>`). */
  register?(): Promise<RegisterCommands>;
  /** The paths its deliveries arrive on, under `PUBLIC_URL`. */
  webhookPaths: readonly string[];
  /** The variables that turn it on, for "none configured"; the simplest set has the lowest rank. */
  setupHint?: { rank: number; variables: string };
  /** `deckhand doctor`'s configuration line (no network): half-set, contradictory, or the mode it runs in. */
  settingsCheck?(config: Config): CheckResult | undefined;
  /** A receiving mode that allows one `web` process only, as a `doctor` line. */
  scalingCheck?(config: Config): CheckResult | undefined;
  /** Loads its `deckhand doctor` network checks. */
  doctor?(): Promise<PlatformDoctor>;
  /**
   * The one slash command every command is typed after on this platform (`/deckhand deploy`), when
   * it has one; help, usage and hints are written in that form there.
   */
  commandNamespace?(config: Config): string;
  /**
   * How a file is attached to `command` (its words, `media upload`) here, as a sentence for hints,
   * in `say`'s language (English when not given).
   */
  attachHint(command: string, say?: Translator): string;
  /** It shows times in each reader's own zone, so a conversation's time zone does not apply. */
  readerTimeZones?: boolean;
  /**
   * Commands are typed with this prefix here instead of `/` (`!deploy`); the adapter writes the
   * command mentions in its texts that way (adapters/command-words.ts).
   */
  commandPrefix?(config: Config): string;
  /** It refuses every secret typed in its text, private conversations included: the secret page only. */
  noSecretsInText?: boolean;
  /**
   * How many messages and edits a conversation takes (the platform's documented send limits): card
   * edits beyond it coalesce, the latest state winning. Absent: {@link DEFAULT_SEND_BUDGET}.
   */
  sendBudget?(conversationId: string): SendBudget;
  /**
   * How its adapter reaches a person directly (`/notify`), in a sentence when it needs something of
   * them (`only after you started a private chat with the bot`); absent: no direct messages there.
   * The adapter's messenger opens the conversation (`Messenger.openDirect`).
   */
  directMessages?: { note?: MessageKey };
}

/** The send and edit budget of a conversation on `platform` (the default one for a platform without its own). */
export function sendBudgetOf(
  platform: Pick<PlatformDescriptor, 'sendBudget'> | undefined,
  conversationId: string,
): SendBudget {
  return platform?.sendBudget?.(conversationId) ?? { ...DEFAULT_SEND_BUDGET, scope: conversationId };
}
