/**
 * The IRC platform's descriptor: what the rest of Deckhand knows about IRC without loading
 * irc-framework. The adapter (one connection with TLS and SASL, identity by services account,
 * `!command` lines, cards as short lines with a web view, numbered buttons, flood control) is in
 * ./load.ts. See docs/irc.md.
 */
import { type Translator, translator } from '../../src/i18n/translate';
import { type PlatformDescriptor, perChannel } from '../descriptor';
import { ircCommandPrefix, ircConfigured, ircMissing, ircScalingCheck, ircSettingsCheck } from './checks';
import { IRC_ENV } from './env';

/** IRC. */
export const irc: PlatformDescriptor<'irc', typeof IRC_ENV> = {
  name: 'irc',
  displayName: 'IRC',
  workspaceWord: 'network',
  exampleUserId: 'ada',
  setupHint: { rank: 2, variables: 'IRC_SERVER, IRC_SASL_ACCOUNT, IRC_SASL_PASSWORD, IRC_CHANNELS' },
  env: IRC_ENV,
  configured: ircConfigured,
  missing: (config) => ircMissing(config),
  load: async () => (await import('./load')).createIrcAdapter,
  webhookPaths: [],
  settingsCheck: ircSettingsCheck,
  scalingCheck: ircScalingCheck,
  doctor: async () => (await import('./doctor')).ircDoctor,
  commandPrefix: ircCommandPrefix,
  noSecretsInText: true,
  // A card's transitions become new lines, which the link's own flood control paces per target
  // (IRC_FLOOD_*); card updates are asked for at most once a second per channel.
  sendBudget: perChannel(1, 1000),
  directMessages: { note: 'irc-dm-note' },
  attachHint: (command: string, say: Translator = translator('en')) => say.t('irc-attach-hint', command),
};
