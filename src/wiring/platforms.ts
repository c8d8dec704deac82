/**
 * The configured chat platforms, and their adapter factories loaded on demand: `start` imports only the
 * SDKs of the platforms it serves (a Telegram-only deployment never loads Bolt or discord.js), and the
 * CLI decides what to start without importing any adapter. The rule is the adapters' own
 * (`configuredPlatforms` in adapters/index.ts; test/cli/platforms.test.ts keeps the two equal). Part of
 * the composition root: the CLI reaches the adapters only through here.
 */
import type { AdapterFactory } from '../../adapters';
import { slackSettings } from '../../adapters/slack/settings';
import type { Config } from '../config';

/** The Slack settings rules, for `deckhand doctor` (which checks them without starting Slack). */
export { DEFAULT_SLACK_API_URL, settingsProblems, slackSettings } from '../../adapters/slack/settings';

/** A chat platform with an adapter. */
export type Platform = 'slack' | 'discord' | 'telegram';

/** The platforms whose adapter `start` runs. */
export function runnablePlatforms(config: Config): Platform[] {
  const out: Platform[] = [];
  if (slackSettings(config)) out.push('slack');
  if (config.DISCORD_TOKEN && config.DISCORD_APPLICATION_ID) out.push('discord');
  if (config.TELEGRAM_BOT_TOKEN) out.push('telegram');
  return out;
}

const LOADERS: Record<Platform, () => Promise<AdapterFactory>> = {
  slack: async () => (await import('../../adapters/slack')).createSlackAdapter,
  discord: async () => (await import('../../adapters/discord')).createDiscordAdapter,
  telegram: async () => (await import('../../adapters/telegram')).createTelegramAdapter,
};

/** The adapter factories of the configured platforms, importing only their modules. */
export async function loadAdapterFactories(config: Config): Promise<AdapterFactory[]> {
  return Promise.all(runnablePlatforms(config).map((platform) => LOADERS[platform]()));
}
