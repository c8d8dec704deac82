/**
 * The Matrix platform's descriptor: what the rest of Deckhand knows about Matrix without loading
 * matrix-js-sdk. The adapter itself (sync, invitations from allowed servers, prefixed commands,
 * threads, edits, numbered buttons and reactions, files through the media repository) is in
 * ./load.ts. See docs/matrix.md.
 */
import { type Translator, translator } from '../../src/i18n/translate';
import { type PlatformDescriptor, perChannel } from '../descriptor';
import {
  matrixCommandPrefix,
  matrixConfigured,
  matrixMissing,
  matrixScalingCheck,
  matrixSettingsCheck,
} from './checks';
import { MATRIX_ENV } from './env';

/** Matrix. */
export const matrix: PlatformDescriptor<'matrix', typeof MATRIX_ENV> = {
  name: 'matrix',
  displayName: 'Matrix',
  workspaceWord: 'homeserver',
  exampleUserId: '@ada:example.org',
  setupHint: { rank: 3, variables: 'MATRIX_HOMESERVER_URL, MATRIX_USER_ID and MATRIX_ACCESS_TOKEN' },
  env: MATRIX_ENV,
  configured: matrixConfigured,
  missing: (config) => matrixMissing(config),
  load: async () => (await import('./load')).createMatrixAdapter,
  webhookPaths: [],
  settingsCheck: matrixSettingsCheck,
  scalingCheck: matrixScalingCheck,
  doctor: async () => (await import('./doctor')).matrixDoctor,
  commandPrefix: matrixCommandPrefix,
  // Homeservers limit each user, not each room; once a second per room keeps a busy card well inside
  // Synapse's default message rate, and a 429's retry_after_ms is honoured on top.
  sendBudget: perChannel(1, 1000),
  directMessages: {},
  attachHint: (command: string, say: Translator = translator('en')) => say.t('matrix-attach-hint', command),
};
