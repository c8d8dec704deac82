/**
 * Discord adapter (discord.js): application commands generated from the registry, autocomplete,
 * buttons, modals and attachments, over the gateway or the HTTP interactions endpoint. See
 * docs/discord.md.
 */
import type { AdapterContext, ManifestSpec, PlatformAdapter } from '../types';
import { DiscordAdapter } from './adapter';
import { buildDiscordCommands } from './manifest';

/** The Discord adapter when `DISCORD_TOKEN` and `DISCORD_APPLICATION_ID` are set; otherwise undefined. */
export function createDiscordAdapter(context: AdapterContext): PlatformAdapter | undefined {
  const { config } = context;
  if (!config.DISCORD_TOKEN || !config.DISCORD_APPLICATION_ID) return undefined;
  return new DiscordAdapter(context);
}

/** `manifest/discord-commands.json`: the application commands, as registered by bulk overwrite. */
export const discordManifest: ManifestSpec | undefined = {
  file: 'discord-commands.json',
  build: (registry) => buildDiscordCommands(registry),
};

export { DiscordAdapter, type DiscordAdapterOptions, type DiscordMode } from './adapter';
export { registerDiscordCommands } from './register';
