import type { AdapterContext, ManifestSpec, PlatformAdapter, RegisterCommands } from '../types';

/** Placeholder until the Slack adapter lands: never configured. */
export function createSlackAdapter(_context: AdapterContext): PlatformAdapter | undefined {
  return undefined;
}

/** Placeholder: the Slack manifest is not generated yet. */
export const slackManifest: ManifestSpec | undefined = undefined;

/** Placeholder: Slack command registration is not available yet. */
export const registerSlackCommands: RegisterCommands | undefined = undefined;
