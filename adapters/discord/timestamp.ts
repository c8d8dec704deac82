import type { CardTime } from '../../src/core/times';

/**
 * Discord's timestamp markdown: `<t:1700000000:f>` (date and time in each reader's zone), `:D` for a
 * day, followed by `<t:…:R>` (relative, kept current by the client) when asked.
 */
export function discordTimestamp(time: CardTime): string {
  const seconds = Math.floor(time.at / 1000);
  const main = `<t:${seconds}:${time.dateOnly ? 'D' : 'f'}>`;
  return time.relative ? `${main} (<t:${seconds}:R>)` : main;
}
