/**
 * The terminal chat's descriptor (`deckhand shell`, and `start` with no platform configured): it needs
 * no credentials, receives nothing over HTTP and has no manifest. The adapter is ./shell-adapter.ts.
 */
import { type Translator, translator } from '../../src/i18n/translate';
import { type PlatformDescriptor, UNLIMITED_SEND_BUDGET } from '../descriptor';

/** The terminal chat. */
export const terminal: PlatformDescriptor<'shell', Record<never, never>> = {
  name: 'shell',
  displayName: 'terminal',
  exampleUserId: 'ada',
  env: {},
  configured: () => false,
  missing: () => undefined,
  webhookPaths: [],
  sendBudget: (conversationId) => ({ scope: conversationId, ...UNLIMITED_SEND_BUDGET }),
  directMessages: {},
  attachHint: (command: string, say: Translator = translator('en')) => say.t('shell-attach-hint', command),
};
