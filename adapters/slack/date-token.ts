import { absoluteText, type CardTime } from '../../src/core/times';

/**
 * Slack's date token: `<!date^1700000000^{date_short_pretty} {time}|fallback>` (each reader's own
 * zone and locale; `{ago}` for the relative part, kept current by Slack). The fallback (for clients
 * that cannot show it) is the text in the conversation's zone and the card's language. Only digits and
 * our own format go in.
 */
export function slackDateToken(time: CardTime, zone?: string, locale?: string): string {
  const seconds = Math.floor(time.at / 1000);
  const format = time.dateOnly
    ? '{date_short_pretty}'
    : time.relative
      ? '{date_short_pretty} {time} ({ago})'
      : '{date_short_pretty} {time}';
  return `<!date^${seconds}^${format}|${absoluteText(time, zone, locale)}>`;
}
