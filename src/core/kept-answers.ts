/**
 * A command's answer kept instead of posted: for a place a platform shows that is no conversation
 * (a home screen), which draws the cards itself.
 */
import type { CardSurface } from './card-surface';
import type { Invocation } from './command';
import type { Card } from './reply';
import type { RunLine } from './unfurls';

/** Runs `line` as the invocation's user and resolves with every card it answered with, in order. */
export async function keptAnswers(run: RunLine, line: string, invocation: Invocation): Promise<Card[]> {
  const kept: Card[] = [];
  const surface: CardSurface = {
    async reply(card) {
      kept.push(card);
      return undefined;
    },
    async update() {},
  };
  await run(line, invocation, surface);
  return kept;
}
