/**
 * The Discord platform's descriptor: what the rest of Deckhand knows about Discord without loading
 * discord.js. The adapter itself (application commands, autocomplete, buttons, modals, attachments,
 * over the gateway or the HTTP interactions endpoint) is in ./load.ts. See docs/discord.md.
 */
import { type Translator, translator } from '../../src/i18n/translate';
import { type PlatformDescriptor, perChannel } from '../descriptor';
import { discordMissing, discordScalingCheck, discordSettingsCheck } from './checks';
import { DISCORD_ENV } from './env';
import { INTERACTIONS_PATH } from './paths';

/** Discord. */
export const discord: PlatformDescriptor<'discord', typeof DISCORD_ENV> = {
  name: 'discord',
  displayName: 'Discord',
  workspaceWord: 'server',
  exampleUserId: '80351110224678912',
  setupHint: { rank: 2, variables: 'DISCORD_TOKEN with DISCORD_APPLICATION_ID' },
  env: DISCORD_ENV,
  configured: (config) => Boolean(config.DISCORD_TOKEN && config.DISCORD_APPLICATION_ID),
  missing: (config) => discordMissing(config),
  load: async () => (await import('./load')).createDiscordAdapter,
  manifest: async () => (await import('./load')).discordManifest,
  register: async () => (await import('./register')).registerDiscordCommands,
  webhookPaths: [INTERACTIONS_PATH],
  settingsCheck: discordSettingsCheck,
  scalingCheck: discordScalingCheck,
  doctor: async () => (await import('./doctor')).discordDoctor,
  // A channel's messages: 5 per 5 s (the bucket discord.js's REST client reads from the headers).
  sendBudget: perChannel(5, 5000),
  directMessages: {
    note: 'discord-dm-note',
  },
  attachHint: (command: string, say: Translator = translator('en')) => say.t('discord-attach-hint', command),
  readerTimeZones: true,
};
