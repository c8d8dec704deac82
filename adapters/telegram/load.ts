/**
 * Telegram: grammY with long polling or a webhook, commands from the registry, HTML cards with inline
 * keyboards, step-by-step forms in private chats, incoming files. See docs/telegram.md.
 */
import type { AdapterContext, PlatformAdapter } from '../types';
import { TelegramAdapter, type TelegramAdapterOptions } from './adapter';

/** Creates the Telegram adapter when `TELEGRAM_BOT_TOKEN` is set; `undefined` otherwise. */
export function createTelegramAdapter(
  context: AdapterContext,
  options: TelegramAdapterOptions = {},
): PlatformAdapter | undefined {
  if (!context.config.TELEGRAM_BOT_TOKEN) return undefined;
  return new TelegramAdapter(context, options);
}

export { TelegramAdapter, type TelegramAdapterOptions } from './adapter';
export { registerTelegramCommands, telegramManifest } from './manifest';
