/**
 * The Server Admin Log's feed channel on IRC (`SAL_CHANNEL`): the bot joins it by itself, with the
 * configured channels, because a channel is usually `+n` (only members may speak in it). It is a feed
 * read by stashbot and people, so the bot says its `!log` lines there and answers nothing typed in it.
 */
import type { Config } from '../../src/config';

/** The channels the bot joins: `IRC_CHANNELS`, then the SAL channel (once, whatever its case). */
export function channelsToJoin(config: Pick<Config, 'IRC_CHANNELS' | 'SAL_CHANNEL'>): string[] {
  const listed = new Set(config.IRC_CHANNELS.map((c) => c.toLowerCase()));
  return listed.has(config.SAL_CHANNEL.toLowerCase())
    ? [...config.IRC_CHANNELS]
    : [...config.IRC_CHANNELS, config.SAL_CHANNEL];
}

/** True for the SAL channel, where the bot answers no command and no button. */
export function isFeedChannel(config: Pick<Config, 'SAL_CHANNEL'>, target: string): boolean {
  return target.toLowerCase() === config.SAL_CHANNEL.toLowerCase();
}
