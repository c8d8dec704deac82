import type { ActionStore } from '../../src/core/actions';
import type { CommandRegistry } from '../../src/core/registry';
import type { Card } from '../../src/core/reply';

/** Decides which buttons of a card get Slack's confirm dialog. */
export type DialogPolicy = (card: Card) => Promise<ReadonlySet<string>>;

/**
 * Slack's confirm dialog goes on destructive (danger) buttons whose command does not ask for
 * confirmation itself: a command with `confirm` already answers the click with a Confirm/Cancel
 * card, and the Confirm button of that card is the confirmation, so neither gets a second question.
 */
export function dialogPolicy(actions: ActionStore, registry: CommandRegistry<unknown>): DialogPolicy {
  return async (card) => {
    const ids = new Set<string>();
    for (const button of card.buttons ?? []) {
      if (button.style !== 'danger') continue;
      const action = await actions.load(button.actionId);
      if (!action || action.confirmed) continue;
      const command = registry.get(action.command);
      if (command && !command.confirm) ids.add(button.actionId);
    }
    return ids;
  };
}
