/** What a user saw for each slash command of a load: answered, refused, or a card of the run. */
import type { SlackBot } from '../fakes/slack/harness';

/** The refusal a command gets while the store is unavailable. */
export const REFUSED = /Deckhand's store is unavailable, nothing was done — try again in a minute/;

/**
 * A command the tool platform's bulkhead did not send (a burst released by the failover found its
 * compartment full, or the platform known down): nothing was done either, and the words say so.
 */
export const NOT_SENT = /so this one was not sent|so Deckhand is not sending it more/;

/** One command's outcome, from everything the fake Slack recorded for its channel and response URL. */
export interface Outcome {
  channel: string;
  /** When it was typed (ms). */
  at: number;
  answered: boolean;
  refused: boolean;
  /** The tool platform's bulkhead did not send it ({@link NOT_SENT}). */
  notSent: boolean;
  /** Something other than the refusal was shown: the command ran. */
  ranCard: boolean;
}

/** The outcomes of commands sent each in its own channel, with their response URL ids. */
export function commandOutcomes(
  bot: SlackBot,
  sent: readonly { channel: string; responseId: string; at: number }[],
): Outcome[] {
  return sent.map(({ channel, responseId, at }) => {
    const shown = [
      ...bot.fake.channelMessages(channel).map((m) => JSON.stringify(m)),
      ...bot.fake.ephemerals.filter((e) => e.channel === channel).map((e) => JSON.stringify(e.body)),
      ...bot.fake.responses.filter((r) => r.id === responseId).map((r) => JSON.stringify(r.body)),
    ];
    const refused = shown.filter((s) => REFUSED.test(s));
    const notSent = shown.filter((s) => NOT_SENT.test(s));
    return {
      channel,
      at,
      answered: shown.length > 0,
      refused: refused.length > 0,
      notSent: notSent.length > 0,
      ranCard: shown.length > refused.length + notSent.length,
    };
  });
}
