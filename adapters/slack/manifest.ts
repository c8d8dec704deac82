import type { Config } from '../../src/config';
import { usageLine } from '../../src/core/help';
import type { CommandRegistry } from '../../src/core/registry';
import type { ManifestSpec } from '../types';

/**
 * The bot scopes Deckhand asks for, each for one reason (docs/slack.md explains them to admins).
 */
export const BOT_SCOPE_REASONS = {
  commands: 'the slash command (/deckhand deploy, /deckhand build, …)',
  'chat:write': 'posting status cards and keeping them up to date',
  'chat:write.public': 'posting cards in public channels without being invited first',
  'im:write': 'opening a DM with a user for private replies and private files',
  'im:history': 'reading commands and files users send to the bot in its DM',
  'channels:history':
    'after a crash, finding an announcement that may already be posted (message metadata), so it is not posted twice',
  'groups:history': 'the same in private channels',
  'mpim:history': 'the same in group DMs',
  'app_mentions:read': 'answering @Deckhand in channels',
  'files:write': 'attaching long logs and transcripts as files',
  'files:read': 'reading files users share with the bot (uploads)',
  'links:read': 'seeing links to tools, builds and tasks posted in conversations (link unfurls)',
  'links:write': 'showing those links as status cards (link unfurls)',
  'users:read': "reading a person's Slack language (users.info), to answer them in it",
} as const;

/** The bot scopes, in manifest order. */
export const BOT_SCOPES = Object.keys(BOT_SCOPE_REASONS) as (keyof typeof BOT_SCOPE_REASONS)[];

/** Bot events Deckhand subscribes to. */
export const BOT_EVENTS = ['app_mention', 'message.im', 'link_shared', 'app_home_opened'] as const;

/** Used in the manifest when `PUBLIC_URL` is not set; replace it with the bot's public address. */
export const PLACEHOLDER_URL = 'https://deckhand.example.org';

/**
 * The slash command of one group: a command named like the group gives the description and usage;
 * subcommands are listed (with `/deckhand help <group>` for their details).
 */
function groupCommand(registry: CommandRegistry<unknown>, group: string, namespace: string) {
  const members = registry.group(group);
  const bare = members.find((c) => c.name === group);
  const subcommands = members.filter((c) => c !== bare).map((c) => c.name.split(' ').slice(1).join(' '));
  const details = `(details: /${namespace} help ${group})`;
  if (bare) {
    const usage = usageLine(bare).slice(`/${group}`.length).trim();
    return {
      command: `/${group}`,
      description: (subcommands.length
        ? `${bare.summary}; also ${subcommands.join(', ')} ${details}`
        : bare.summary
      ).slice(0, 2000),
      usage_hint: (subcommands.length ? `${usage} | ${subcommands.join('|')} …` : usage).slice(0, 1000),
    };
  }
  return {
    command: `/${group}`,
    description: `${subcommands.join(', ')} ${details}`.slice(0, 2000),
    usage_hint: `${subcommands.join('|')} …`.slice(0, 1000),
  };
}

function withoutEmptyHint<T extends { usage_hint: string }>(command: T): Omit<T, 'usage_hint'> | T {
  if (command.usage_hint) return command;
  const { usage_hint: _unused, ...rest } = command;
  return rest;
}

/** Slack's own slash commands, which an app cannot register (`/me` is Slack's; `/deckhand me` is ours). */
const SLACK_BUILT_IN_COMMANDS = new Set(['me', 'msg', 'dm', 'invite', 'remind', 'status', 'away', 'shrug']);

/**
 * The command groups registered as their own slash commands besides the one namespaced command
 * (`SLACK_LEGACY_COMMANDS`: a list of groups, or `all`), in registry order; never one of Slack's own.
 */
export function legacyGroups(registry: CommandRegistry<unknown>, config: Config): string[] {
  const wanted = new Set(config.SLACK_LEGACY_COMMANDS);
  const all = wanted.has('all');
  return registry
    .groups()
    .filter((group) => (all || wanted.has(group)) && !SLACK_BUILT_IN_COMMANDS.has(group));
}

/** The one namespaced command (`/deckhand <command> …`), described by its most used commands. */
function namespacedCommand(registry: CommandRegistry<unknown>, config: Config) {
  const name = config.SLACK_COMMAND;
  const groups = registry.groups().filter((group) => group !== 'help');
  return {
    command: `/${name}`,
    description: `Deckhand: ${groups.join(', ')} (/${name} help)`.slice(0, 2000),
    usage_hint: 'deploy mytool | jobs list mytool | logs mytool web | help [command]',
  };
}

/**
 * The Slack app manifest (`manifest/slack-app.json`): one slash command (`SLACK_COMMAND`, default
 * `/deckhand`) taking the command as its first word, plus the opt-in per-group commands of
 * `SLACK_LEGACY_COMMANDS`; the bot scopes, interactivity, events and the OAuth redirect URL, all
 * pointing at `PUBLIC_URL`.
 */
export function buildSlackManifest(registry: CommandRegistry<unknown>, config: Config): unknown {
  const base = (config.PUBLIC_URL ?? PLACEHOLDER_URL).replace(/\/+$/, '');
  const events = `${base}/slack/events`;
  const socket = Boolean(config.SLACK_APP_TOKEN);
  const commands = [
    namespacedCommand(registry, config),
    ...legacyGroups(registry, config)
      .filter((group) => group !== config.SLACK_COMMAND)
      .map((group) => withoutEmptyHint(groupCommand(registry, group, config.SLACK_COMMAND))),
  ];
  return {
    _metadata: { major_version: 1, minor_version: 1 },
    display_information: {
      name: 'Deckhand',
      description: 'Chat-ops for tool hosting: deploy, build, run jobs, tail logs and manage envvars.',
      background_color: '#1d3557',
    },
    features: {
      app_home: {
        home_tab_enabled: true,
        messages_tab_enabled: true,
        messages_tab_read_only_enabled: false,
      },
      bot_user: { display_name: 'deckhand', always_online: true },
      unfurl_domains: [...config.UNFURL_DOMAINS],
      slash_commands: commands.map((command) => ({
        ...command,
        ...(socket ? {} : { url: events }),
        should_escape: false,
      })),
    },
    oauth_config: {
      redirect_urls: [`${base}/slack/oauth_redirect`],
      scopes: { bot: [...BOT_SCOPES] },
    },
    settings: {
      event_subscriptions: { ...(socket ? {} : { request_url: events }), bot_events: [...BOT_EVENTS] },
      interactivity: { is_enabled: true, ...(socket ? {} : { request_url: events }) },
      org_deploy_enabled: false,
      socket_mode_enabled: socket,
      token_rotation_enabled: false,
    },
  };
}

/** `deckhand manifest slack`. */
export const slackManifestSpec: ManifestSpec = {
  file: 'slack-app.json',
  build: buildSlackManifest,
};
