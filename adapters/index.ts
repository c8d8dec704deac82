import type { Config } from '../src/config';
import { createDiscordAdapter, discordManifest, registerDiscordCommands } from './discord';
import { createSlackAdapter, slackManifest } from './slack';
import { createTelegramAdapter, registerTelegramCommands, telegramManifest } from './telegram';
import type { AdapterFactory, ManifestSpec, RegisterCommands } from './types';

/** Every chat platform adapter; each turns itself on when its credentials are configured. */
export const ADAPTERS: readonly AdapterFactory[] = [
  createSlackAdapter,
  createDiscordAdapter,
  createTelegramAdapter,
];

/** Generated manifests by platform (`deckhand manifest <platform>`). */
export const MANIFESTS: Record<'slack' | 'discord' | 'telegram', ManifestSpec | undefined> = {
  slack: slackManifest,
  discord: discordManifest,
  telegram: telegramManifest,
};

/** Command registration by platform (`deckhand register <platform>`). */
export const REGISTRARS: Record<'discord' | 'telegram', RegisterCommands | undefined> = {
  discord: registerDiscordCommands,
  telegram: registerTelegramCommands,
};

export type {
  AdapterContext,
  AdapterFactory,
  ManifestSpec,
  PlatformAdapter,
  RegisterCommands,
} from './types';

/** The chat platforms whose credentials are configured (the adapters that `start` runs). */
export function configuredPlatforms(config: Config): ('slack' | 'discord' | 'telegram')[] {
  const platforms: ('slack' | 'discord' | 'telegram')[] = [];
  if (
    (config.SLACK_BOT_TOKEN && (config.SLACK_SIGNING_SECRET || config.SLACK_APP_TOKEN)) ||
    (config.SLACK_CLIENT_ID && config.SLACK_CLIENT_SECRET)
  ) {
    platforms.push('slack');
  }
  if (config.DISCORD_TOKEN && config.DISCORD_APPLICATION_ID) platforms.push('discord');
  if (config.TELEGRAM_BOT_TOKEN) platforms.push('telegram');
  return platforms;
}
