/**
 * The configured chat platforms, and their adapter factories loaded on demand: `start` imports only the
 * SDKs of the platforms it serves (a Telegram-only deployment never loads Bolt or discord.js), and the
 * CLI decides what to start without importing any adapter. The rule is the adapters' own
 * (`configuredPlatforms` in adapters/index.ts; test/cli/platforms.test.ts keeps the two equal). Part of
 * the composition root: the CLI reaches the adapters only through here.
 */
import type { AdapterFactory } from '../../adapters';
import { settingsProblems, slackSettings } from '../../adapters/slack/settings';
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

/** A chat platform the operator started to configure but left incomplete. */
export interface PlatformProblem {
  platform: Platform;
  /** What is missing, naming the variables to set. */
  message: string;
}

const SLACK_VARIABLES = [
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'SLACK_CLIENT_ID',
  'SLACK_CLIENT_SECRET',
  'SLACK_STATE_SECRET',
] as const;

const present = (config: Config, names: readonly (keyof Config)[]) => names.filter((n) => Boolean(config[n]));

function slackProblem(config: Config, role: Role): string | undefined {
  const touched = present(config, SLACK_VARIABLES);
  if (touched.length === 0) return undefined;
  if (config.SLACK_CLIENT_ID && !config.SLACK_CLIENT_SECRET)
    return 'set SLACK_CLIENT_SECRET (with SLACK_CLIENT_ID).';
  if (config.SLACK_CLIENT_SECRET && !config.SLACK_CLIENT_ID)
    return 'set SLACK_CLIENT_ID (with SLACK_CLIENT_SECRET).';
  const settings = slackSettings(config);
  if (!settings) {
    if (config.SLACK_BOT_TOKEN) {
      return 'set SLACK_SIGNING_SECRET (Slack posts to PUBLIC_URL/slack/events) or SLACK_APP_TOKEN (Socket Mode) with SLACK_BOT_TOKEN.';
    }
    return `${touched.join(', ')} set, but no SLACK_BOT_TOKEN (one workspace) or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (installs): set one of them.`;
  }
  const problems = settingsProblems(settings, role);
  return problems.length > 0 ? problems.join(' ') : undefined;
}

function discordProblem(config: Config): string | undefined {
  if (present(config, ['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID', 'DISCORD_PUBLIC_KEY']).length === 0)
    return undefined;
  const missing = (['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID'] as const).filter((n) => !config[n]);
  return missing.length > 0
    ? `set ${missing.join(' and ')} (Developer Portal → your application).`
    : undefined;
}

function telegramProblem(config: Config): string | undefined {
  if (!config.TELEGRAM_WEBHOOK_SECRET) return undefined;
  if (!config.TELEGRAM_BOT_TOKEN)
    return 'TELEGRAM_WEBHOOK_SECRET is set: set TELEGRAM_BOT_TOKEN (BotFather → /token).';
  if (!config.PUBLIC_URL) {
    return 'TELEGRAM_WEBHOOK_SECRET needs PUBLIC_URL (Telegram posts to PUBLIC_URL/telegram/webhook); unset TELEGRAM_WEBHOOK_SECRET to long-poll instead.';
  }
  return undefined;
}

type Role = 'web' | 'worker' | 'all';

/**
 * The platforms set up half-way (e.g. `SLACK_BOT_TOKEN` alone), each with the variables still missing:
 * `start` refuses them (exit 2) instead of quietly running without that platform, and `doctor` fails
 * on them. Empty when every platform is either fully configured or not at all.
 */
export function platformProblems(config: Config, role: Role = 'all'): PlatformProblem[] {
  const found: [Platform, string | undefined][] = [
    ['slack', slackProblem(config, role)],
    ['discord', discordProblem(config)],
    ['telegram', telegramProblem(config)],
  ];
  return found.flatMap(([platform, message]) => (message ? [{ platform, message }] : []));
}

/** The one-paragraph refusal `start` prints for {@link platformProblems}. */
export function describePlatformProblems(problems: readonly PlatformProblem[]): string {
  const names = { slack: 'Slack', discord: 'Discord', telegram: 'Telegram' } as const;
  return [
    'deckhand: a chat platform is only partly configured, so Deckhand does not start:',
    ...problems.map((p) => `  ${names[p.platform]}: ${p.message}`),
    'Set the missing variables (or unset the ones given), then start again; `deckhand doctor` checks the rest.',
  ].join('\n');
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
