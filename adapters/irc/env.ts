import { z } from 'zod';
import { bool, type EnvVar, listOf } from '../../src/config-schema';

const count = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** The IRC adapter's environment variables (merged into the configuration schema). */
export const IRC_ENV = {
  IRC_SERVER: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, 'must be host or host:port, like irc.libera.chat:6697')
      .optional(),
    description: 'IRC server as host[:port] (port 6697 with TLS, 6667 without); turns the IRC adapter on.',
  },
  IRC_TLS: {
    schema: bool.default(true),
    description: 'Connect with TLS (certificate verified). Set to `false` only for a local test server.',
    defaultText: '`true`',
  },
  IRC_TLS_CA: {
    schema: z.string().min(1).optional(),
    description: 'A PEM file of the CA that signed the server certificate, when it is not a public one.',
  },
  IRC_NICK: {
    schema: z
      .string()
      .regex(/^[A-Za-z[\]\\`_^{|}][A-Za-z0-9[\]\\`_^{|}-]{0,29}$/, 'must be an IRC nick like deckhand')
      .default('deckhand'),
    description:
      'The bot’s nick (another is tried when it is taken). Commands may address it: `deckhand: help`.',
  },
  IRC_SASL_ACCOUNT: {
    schema: z.string().min(1).max(64).optional(),
    description: 'The bot’s services account, for SASL PLAIN (with `IRC_SASL_PASSWORD`).',
  },
  IRC_SASL_PASSWORD: {
    schema: z.string().min(1).optional(),
    description: 'The password of `IRC_SASL_ACCOUNT`.',
  },
  IRC_SASL_CERT: {
    schema: z.string().min(1).optional(),
    description:
      'SASL EXTERNAL instead of a password: a PEM file holding the client certificate and its key (registered with NickServ CERT ADD).',
  },
  IRC_CHANNELS: {
    schema: listOf(/^[#&][^\s,\x07]{1,49}$/, '#wikimedia-cloud'),
    description: 'Channels to join (comma-separated), re-joined after every reconnect.',
    defaultText: 'none',
  },
  IRC_COMMAND_PREFIX: {
    schema: z
      .string()
      .regex(/^[!.@$%&*+~?-]{1,2}$/, 'one or two of ! . @ $ % & * + ~ ? -')
      .default('!'),
    description: 'Prefix of commands in channels: `!deploy mytool`, `!deckhand deploy mytool`.',
    defaultText: '`!`',
  },
  IRC_FLOOD_BURST: {
    schema: count(1, 20, 4),
    description: 'Lines the bot may send to one target at once before pacing itself.',
    defaultText: '`4`',
  },
  IRC_FLOOD_INTERVAL_MS: {
    schema: count(200, 60_000, 1_000),
    description:
      'Milliseconds between lines once the burst is spent, per target and overall (a server allows about one a second).',
    defaultText: '`1000`',
  },
} satisfies Record<string, EnvVar>;
