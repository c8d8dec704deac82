/**
 * The Slack platform's descriptor: what the rest of Deckhand knows about Slack without loading Bolt.
 * The adapter itself (Bolt, Block Kit, modals, OAuth installs) is in ./load.ts. See docs/slack.md.
 */
import { type Translator, translator } from '../../src/i18n/translate';
import { type PlatformDescriptor, perChannel } from '../descriptor';
import { slackSettingsCheck } from './checks';
import { SLACK_ENV } from './env';
import { SLACK_ROUTES, slackMissing, slackSettings } from './settings';

/** Slack. */
export const slack: PlatformDescriptor<'slack', typeof SLACK_ENV> = {
  name: 'slack',
  displayName: 'Slack',
  workspaceWord: 'workspace',
  exampleUserId: 'U0123ABCD',
  storesInstallations: true,
  setupHint: { rank: 1, variables: 'SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET or SLACK_APP_TOKEN' },
  env: SLACK_ENV,
  configured: (config) => slackSettings(config) !== undefined,
  missing: slackMissing,
  load: async () => (await import('./load')).createSlackAdapter,
  manifest: async () => (await import('./manifest')).slackManifestSpec,
  webhookPaths: [SLACK_ROUTES.events],
  settingsCheck: slackSettingsCheck,
  doctor: async () => (await import('./doctor')).slackDoctor,
  commandNamespace: (config) => config.SLACK_COMMAND,
  // chat.postMessage: about one message per second per channel (api.slack.com/methods/chat.postMessage);
  // chat.update is counted per workspace, so edits keep to the same pace per channel.
  sendBudget: perChannel(1, 1000),
  directMessages: {},
  attachHint: (command: string, say: Translator = translator('en')) => say.t('slack-attach-hint', command),
  readerTimeZones: true,
};
