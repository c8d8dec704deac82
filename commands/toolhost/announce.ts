import type { ActionRequest, CardStatus, DraftCard } from '../../src/core/reply';
import type { Outcome, WatchEvent } from '../../src/core/watch';

const STATUS: Record<Outcome, CardStatus> = { success: 'success', failure: 'danger', cancelled: 'warning' };

/**
 * The announcement of a state change in a subscribed conversation: `mytool: deployment failed`, the
 * detail, and a button to see the whole thing.
 */
export function announcement(event: WatchEvent, noun: string, show: ActionRequest): DraftCard {
  const status: CardStatus = event.outcome ? STATUS[event.outcome] : 'progress';
  const from = event.from === 'unknown' ? '' : ` (was ${event.from})`;
  return {
    title: `${event.tool}: ${noun} ${event.to}`,
    text: `${event.detail || `${noun} ${event.id} is now ${event.to}`}${from}`,
    status,
    actions: [show],
    footer: `${noun} ${event.id}`,
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
