import { z } from 'zod';
import { type EnvVar, optionalUrl } from '../../src/config-schema';

/** The Telegram adapter's environment variables (merged into the configuration schema). */
export const TELEGRAM_ENV = {
  TELEGRAM_BOT_TOKEN: {
    schema: z
      .string()
      .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'must be a token from BotFather, like 123456:ABC…')
      .optional(),
    description: 'Telegram bot token; turns the Telegram adapter on (long polling).',
  },
  TELEGRAM_WEBHOOK_SECRET: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,256}$/, '1-256 characters of A-Z a-z 0-9 _ -')
      .optional(),
    description:
      'With `PUBLIC_URL`: receive updates by webhook at `/telegram/webhook`, checking this secret token header.',
  },
  TELEGRAM_API_ROOT: {
    schema: optionalUrl,
    description: 'Bot API root (a local Bot API server for big files; tests point it at a fake).',
    defaultText: '`https://api.telegram.org`',
  },
} satisfies Record<string, EnvVar>;
