import { z } from 'zod';
import { type EnvVar, optionalUrl } from '../../src/config-schema';

/** The Discord adapter's environment variables (merged into the configuration schema). */
export const DISCORD_ENV = {
  DISCORD_TOKEN: {
    schema: z.string().min(1).optional(),
    description:
      'Discord bot token. With `DISCORD_APPLICATION_ID` it turns the Discord adapter on (gateway).',
  },
  DISCORD_APPLICATION_ID: {
    schema: z
      .string()
      .regex(/^\d{5,25}$/, 'must be the numeric application id')
      .optional(),
    description: 'Discord application id.',
  },
  DISCORD_PUBLIC_KEY: {
    schema: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be the 64-hex-digit public key from the developer portal')
      .optional(),
    description:
      'Discord public key: serve interactions over HTTP at `/discord/interactions` (signatures checked) instead of the gateway.',
  },
  DISCORD_API_URL: {
    schema: optionalUrl,
    description: 'Base of the Discord REST API (tests point it at a local fake).',
    defaultText: '`https://discord.com/api`',
  },
} satisfies Record<string, EnvVar>;
