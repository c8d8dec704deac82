/** `deckhand doctor`'s configuration lines for IRC (no network). */
import type { Config } from '../../src/config';
import { type CheckResult, fail, ok } from '../doctor-kit';
import { isFeedChannel } from './feed';

/** Whether the IRC adapter runs. */
export function ircConfigured(config: Config): boolean {
  return Boolean(config.IRC_SERVER);
}

/** What is missing when IRC is set up half-way, naming the variables; `undefined` otherwise. */
export function ircMissing(config: Config): string | undefined {
  const sasl = config.IRC_SASL_ACCOUNT || config.IRC_SASL_PASSWORD || config.IRC_SASL_CERT;
  if (!config.IRC_SERVER) {
    return sasl || config.IRC_CHANNELS.length
      ? 'IRC settings are set but IRC_SERVER is not: set it (host:port, e.g. irc.libera.chat:6697).'
      : undefined;
  }
  if (config.IRC_SASL_PASSWORD && !config.IRC_SASL_ACCOUNT)
    return 'IRC_SASL_PASSWORD is set: set IRC_SASL_ACCOUNT, the bot’s services account.';
  if (config.IRC_SASL_ACCOUNT && !config.IRC_SASL_PASSWORD && !config.IRC_SASL_CERT)
    return 'IRC_SASL_ACCOUNT is set: set IRC_SASL_PASSWORD (SASL PLAIN) or IRC_SASL_CERT (SASL EXTERNAL).';
  if (config.IRC_SASL_CERT && !config.IRC_TLS) return 'IRC_SASL_CERT (SASL EXTERNAL) needs IRC_TLS=true.';
  return undefined;
}

/** Half-set, or how it connects. */
export function ircSettingsCheck(config: Config): CheckResult | undefined {
  const label = 'IRC settings';
  const problem = ircMissing(config);
  if (problem) return fail(label, problem);
  if (!config.IRC_SERVER) return undefined;
  const sasl = config.IRC_SASL_CERT ? 'SASL EXTERNAL' : config.IRC_SASL_ACCOUNT ? 'SASL PLAIN' : 'no SASL';
  const channels = config.IRC_CHANNELS.length ? config.IRC_CHANNELS.join(', ') : 'no channels';
  const feed = isFeedListed(config)
    ? `; ${config.SAL_CHANNEL} is also the SAL channel (SAL_CHANNEL): no command is answered there`
    : `; SAL lines in ${config.SAL_CHANNEL}, joined as well`;
  return ok(
    label,
    `${config.IRC_SERVER}, ${config.IRC_TLS ? 'TLS' : 'plain text'}, ${sasl}, ${channels}${feed}.`,
  );
}

/** True when `IRC_CHANNELS` lists the SAL channel (it is joined anyway, and answers nothing). */
function isFeedListed(config: Config): boolean {
  return config.IRC_CHANNELS.some((c) => isFeedChannel(config, c));
}

/** One process holds the IRC connection. */
export function ircScalingCheck(config: Config): CheckResult | undefined {
  if (!config.IRC_SERVER) return undefined;
  return ok(
    'IRC mode',
    'one connection: run one `--role web` (or `all`) process with IRC configured; workers queue their lines for it.',
  );
}

/** How commands are typed here: the prefix instead of `/` (`IRC_COMMAND_PREFIX`); the descriptor's `commandPrefix`. */
export function ircCommandPrefix(config: Config): string {
  return config.IRC_COMMAND_PREFIX;
}
