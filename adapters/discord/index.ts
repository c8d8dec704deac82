import type { AdapterContext, ManifestSpec, PlatformAdapter, RegisterCommands } from '../types';

/** Placeholder until the Discord adapter lands: never configured. */
export function createDiscordAdapter(_context: AdapterContext): PlatformAdapter | undefined {
  return undefined;
}

/** Placeholder: the Discord manifest is not generated yet. */
export const discordManifest: ManifestSpec | undefined = undefined;

/** Placeholder: Discord command registration is not available yet. */
export const registerDiscordCommands: RegisterCommands | undefined = undefined;
