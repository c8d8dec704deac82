import { z } from 'zod';
import { type EnvVar, listOf, optionalUrl } from '../../src/config-schema';

/** A Matrix user id: `@localpart:server`. */
const USER_ID = /^@[^:\s]+:[A-Za-z0-9.-]+(:\d{1,5})?$/;
/** A server name (`example.org`, `matrix.example.org:8448`). */
const SERVER = /^[A-Za-z0-9.-]+(:\d{1,5})?$/;

/** The Matrix adapter's environment variables (merged into the configuration schema). */
export const MATRIX_ENV = {
  MATRIX_HOMESERVER_URL: {
    schema: optionalUrl,
    description:
      'Base URL of the bot account’s homeserver (`https://matrix.example.org`); with `MATRIX_USER_ID` and a token or password it turns the Matrix adapter on.',
  },
  MATRIX_USER_ID: {
    schema: z.string().regex(USER_ID, 'must be a Matrix user id like @deckhand:example.org').optional(),
    description: 'The bot account’s Matrix user id (`@deckhand:example.org`).',
  },
  MATRIX_ACCESS_TOKEN: {
    schema: z.string().min(1).optional(),
    description: 'Access token of the bot account (preferred over `MATRIX_PASSWORD`).',
  },
  MATRIX_PASSWORD: {
    schema: z.string().min(1).optional(),
    description:
      'Password of the bot account: without `MATRIX_ACCESS_TOKEN`, Deckhand logs in at start and uses the token it gets.',
  },
  MATRIX_ALLOWED_SERVERS: {
    schema: listOf(SERVER, 'example.org'),
    description:
      'Servers whose rooms and people may invite the bot (comma-separated, e.g. `example.org,wikimedia.org`); default: the bot’s own server only.',
  },
  MATRIX_COMMAND_PREFIX: {
    schema: z
      .string()
      .regex(/^[!.$%&?~]$/, 'one of ! . $ % & ? ~')
      .default('!'),
    description: 'The character commands start with in rooms (`!deploy mytool`, `!deckhand deploy mytool`).',
    defaultText: '`!`',
  },
} satisfies Record<string, EnvVar>;
