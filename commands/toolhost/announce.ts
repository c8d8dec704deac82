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
