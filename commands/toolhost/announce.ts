import { claimAction } from '../../src/core/failure-card';
import { scopeOf } from '../../src/core/failure-claim';
import type { ActionRequest, CardField, CardStatus, DraftCard } from '../../src/core/reply';
import type { Outcome, WatchEvent } from '../../src/core/watch';

const STATUS: Record<Outcome, CardStatus> = { success: 'success', failure: 'danger', cancelled: 'warning' };

/**
 * The announcement of a state change in a subscribed conversation: `mytool: deployment failed`, the
 * detail, and a button to see the whole thing. A failure's card also shows its exit code, restarts
 * and last log lines, the `remedies` (Restart, Logs, Roll back) and I'm on it.
 */
export function announcement(
  event: WatchEvent,
  noun: string,
  show: ActionRequest,
  remedies: readonly ActionRequest[] = [],
): DraftCard {
  const status: CardStatus = event.outcome ? STATUS[event.outcome] : 'progress';
  const from = event.from === 'unknown' ? '' : ` (was ${event.from})`;
  const card: DraftCard = {
    title: `${event.tool}: ${noun} ${event.to}`,
    text: `${event.detail || `${noun} ${event.id} is now ${event.to}`}${from}`,
    status,
    actions: [show],
    footer: `${noun} ${event.id}`,
  };
  if (event.outcome !== 'failure') return card;
  const facts = event.failure ?? {};
  const fields: CardField[] = [];
  if (facts.exitCode !== undefined)
    fields.push({ label: 'Exit code', value: String(facts.exitCode), inline: true });
  if (facts.restarts !== undefined)
    fields.push({ label: 'Restarts', value: String(facts.restarts), inline: true });
  const scope = scopeOf(event);
  return {
    ...card,
    tool: event.tool,
    ...(fields.length ? { fields } : {}),
    ...(facts.lines?.length ? { code: { text: facts.lines.join('\n') } } : {}),
    actions: [...remedies, show, ...(scope ? [claimAction(scope)] : [])],
  };
}

/**
 * The card a watch leaves when Deckhand stops following a resource: its last card (else
 * `fallback`), saying why and which command shows where the resource is.
 */
export function stoppedFollowing(
  lastCard: DraftCard | undefined,
  fallback: DraftCard,
  what: string,
  reason: string,
  check: string,
): DraftCard {
  return {
    ...(lastCard ?? fallback),
    status: 'warning',
    text: `Deckhand stopped following ${what}: ${reason}.\nUse ${check} to see where it is.`,
  };
}
