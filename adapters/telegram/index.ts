import type { AdapterContext, ManifestSpec, PlatformAdapter, RegisterCommands } from '../types';

/** Placeholder until the Telegram adapter lands: never configured. */
export function createTelegramAdapter(_context: AdapterContext): PlatformAdapter | undefined {
  return undefined;
}

/** Placeholder: the Telegram manifest is not generated yet. */
export const telegramManifest: ManifestSpec | undefined = undefined;

/** Placeholder: Telegram command registration is not available yet. */
export const registerTelegramCommands: RegisterCommands | undefined = undefined;
