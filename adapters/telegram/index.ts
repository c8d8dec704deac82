/**
 * The Telegram platform's descriptor: what the rest of Deckhand knows about Telegram without loading
 * grammY. The adapter itself (long polling or a webhook, commands from the registry, HTML cards with
 * inline keyboards, step-by-step forms in private chats, incoming files) is in ./load.ts. See
 * docs/telegram.md.
 */
import { type Translator, translator } from '../../src/i18n/translate';
import type { PlatformDescriptor } from '../descriptor';
import { telegramSendBudget } from './budget';
import { telegramMissing, telegramScalingCheck, telegramSettingsCheck } from './checks';
import { TELEGRAM_ENV } from './env';
import { WEBHOOK_PATH } from './paths';

/** Telegram. */
export const telegram: PlatformDescriptor<'telegram', typeof TELEGRAM_ENV> = {
  name: 'telegram',
  displayName: 'Telegram',
  exampleUserId: '123456789',
  setupHint: { rank: 0, variables: 'TELEGRAM_BOT_TOKEN' },
  env: TELEGRAM_ENV,
  configured: (config) => Boolean(config.TELEGRAM_BOT_TOKEN),
  missing: (config) => telegramMissing(config),
  load: async () => (await import('./load')).createTelegramAdapter,
  manifest: async () => (await import('./load')).telegramManifest,
  register: async () => (await import('./load')).registerTelegramCommands,
  webhookPaths: [WEBHOOK_PATH],
  settingsCheck: telegramSettingsCheck,
  scalingCheck: telegramScalingCheck,
  doctor: async () => (await import('./doctor')).telegramDoctor,
  sendBudget: telegramSendBudget,
  directMessages: { note: 'telegram-dm-note' },
  attachHint: (command: string, say: Translator = translator('en')) => say.t('telegram-attach-hint', command),
};
