/**
 * The configured chat platforms, and their adapter factories loaded on demand: `start` imports only the
 * SDKs of the platforms it serves (a deployment with one platform never loads the others' SDKs), and
 * the CLI decides what to start without importing any adapter. Everything here iterates over the
 * table of platform descriptors (adapters/platforms.ts). Part of the composition root: the CLI reaches
 * the adapters only through here.
 */

import type {
  AdapterFactory,
  ManifestSpec,
  PlatformDescriptor,
  PlatformDoctor,
  RegisterCommands,
  Role,
} from '../../adapters';
import { sendBudgetOf } from '../../adapters/descriptor';
import { PLATFORMS, type PlatformName, platformNamed, TERMINAL } from '../../adapters/platforms';
import type { Config } from '../config';
import { namespacedForms } from '../core/command-form';
import type { PlatformWords } from '../core/platform-words';
import { type SendBudget, UNLIMITED_SEND_BUDGET } from '../core/send-budget';

export type { PlatformDescriptor, PlatformName };
export { PLATFORMS, platformNamed, TERMINAL };

/** A chat platform with an adapter that `start` can run. */
export type Platform = PlatformName;

/** The platforms `start` can serve (those with an adapter to load). */
export const CHAT_PLATFORMS: readonly PlatformDescriptor[] = PLATFORMS.filter((platform) => platform.load);

/** The name people read for a platform (`displayName`), or the name itself for an unknown one. */
export function displayName(name: string): string {
  return platformNamed(name)?.displayName ?? name;
}

/** The platforms whose adapter `start` runs. */
export function runnablePlatforms(config: Config): Platform[] {
  return CHAT_PLATFORMS.filter((platform) => platform.configured(config)).map(
    (platform) => platform.name as Platform,
  );
}

/** A chat platform the operator started to configure but left incomplete. */
export interface PlatformProblem {
  platform: Platform;
  /** What is missing, naming the variables to set. */
  message: string;
}

/**
 * The platforms set up half-way (e.g. only a bot token without its signing secret), each with the
 * variables still missing: `start` refuses them (exit 2) instead of quietly running without that
 * platform, and `doctor` fails on them. Empty when every platform is either fully configured or not
 * at all.
 */
export function platformProblems(config: Config, role: Role = 'all'): PlatformProblem[] {
  return PLATFORMS.flatMap((platform) => {
    const message = platform.missing(config, role);
    return message ? [{ platform: platform.name as Platform, message }] : [];
  });
}

/** The one-paragraph refusal `start` prints for {@link platformProblems}. */
export function describePlatformProblems(problems: readonly PlatformProblem[]): string {
  return [
    'deckhand: a chat platform is only partly configured, so Deckhand does not start:',
    ...problems.map((p) => `  ${displayName(p.platform)}: ${p.message}`),
    'Set the missing variables (or unset the ones given), then start again; `deckhand doctor` checks the rest.',
  ].join('\n');
}

/** The adapter factories of the configured platforms, importing only their modules. */
export async function loadAdapterFactories(config: Config): Promise<AdapterFactory[]> {
  const loaders = CHAT_PLATFORMS.filter((platform) => platform.configured(config)).map(
    (platform) => platform.load as () => Promise<AdapterFactory>,
  );
  return Promise.all(loaders.map((load) => load()));
}

/** The platforms with a generated manifest (`deckhand manifest <name>`). */
export const MANIFEST_PLATFORMS: readonly PlatformDescriptor[] = PLATFORMS.filter((p) => p.manifest);

/** The manifest of the platform `name`; `undefined` when it has none. */
export async function manifestOf(name: string): Promise<ManifestSpec | undefined> {
  return platformNamed(name)?.manifest?.();
}

/** The platforms whose commands `deckhand register` registers. */
export const REGISTER_PLATFORMS: readonly PlatformDescriptor[] = PLATFORMS.filter((p) => p.register);

/** The command registration of the platform `name`; `undefined` when it has none. */
export async function registrarOf(name: string): Promise<RegisterCommands | undefined> {
  return platformNamed(name)?.register?.();
}

/** `a, b, c or d`. */
export function listed(words: readonly string[], last = 'or'): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;
}

/**
 * How commands are written on each platform: the plain `/deploy mytool`, or after the platform's one
 * namespaced command (`/deckhand deploy mytool`) where it has one.
 */
export function commandForms(config: Config, groups: readonly string[]) {
  const namespaces = new Map<string, string>();
  for (const platform of PLATFORMS) {
    const namespace = platform.commandNamespace?.(config);
    if (namespace) namespaces.set(platform.name, namespace);
  }
  return namespacedForms(namespaces, groups);
}

/** Each chat platform's variables as a pattern (`<PREFIX>_*`, the prefix its variables share), in table order. */
export function chatEnvPatterns(): string[] {
  const prefixes = CHAT_PLATFORMS.flatMap((platform) => {
    const first = Object.keys(platform.env)[0];
    return first ? [`${first.split('_')[0]}_*`] : [];
  });
  return [...new Set(prefixes)];
}

/** Each platform's words for commands, from its descriptor (the terminal's for a name no platform has). */
export function platformWords(platform: string): PlatformWords {
  const descriptor = platformNamed(platform) ?? TERMINAL;
  return {
    attachHint: (command, say) => descriptor.attachHint(command, say),
    ...(descriptor.readerTimeZones ? { readerZonesOn: descriptor.displayName } : {}),
    ...(descriptor.noSecretsInText ? { noSecretsInText: true } : {}),
  };
}

/** The conversation and user ids of the terminal chat start with this name and a colon. */
export const TERMINAL_PLATFORM = TERMINAL.name;

/** A configured platform with `deckhand doctor` network checks. */
export type DoctoredPlatform = PlatformDescriptor & { doctor(): Promise<PlatformDoctor> };

/** The platforms `start` would run that have network checks, in the table's order. */
export function doctoredPlatforms(config: Config): DoctoredPlatform[] {
  return CHAT_PLATFORMS.filter(
    (platform): platform is DoctoredPlatform => platform.configured(config) && platform.doctor !== undefined,
  );
}

/**
 * A conversation's send and edit budget, as its platform's descriptor states it; a platform this
 * program does not know (a test's) is not limited.
 */
export function conversationBudget(conversationId: string): SendBudget {
  const platform = platformNamed(conversationId.split(':')[0] ?? '');
  return platform
    ? sendBudgetOf(platform, conversationId)
    : { scope: conversationId, ...UNLIMITED_SEND_BUDGET };
}
