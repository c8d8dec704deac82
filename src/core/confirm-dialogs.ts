/**
 * Which buttons ask "are you sure?" before they run, and what they ask: decided here, once, for
 * every platform. An adapter with a native confirm dialog (a `confirm` object on a button)
 * renders the decision; the others have the same question asked by the command's own Confirm/Cancel
 * card (commands with `confirm`), and no dialog on other buttons.
 */
import { t } from '../i18n/translate';
import type { ActionStore } from './actions';
import type { CommandRegistry } from './registry';
import type { Card, CardButton } from './reply';

/** The question a button asks before it runs (plain text; renderers escape and trim it). */
export interface ConfirmDialog {
  title: string;
  text: string;
  /** Label of the button that goes ahead. */
  confirm: string;
  /** Label of the button that backs out. */
  deny: string;
}

/** The dialogs of a card's buttons, by action id (buttons without one run at once). */
export type ConfirmDialogs = (card: Card) => Promise<ReadonlyMap<string, ConfirmDialog>>;

/**
 * The question of a destructive button, about the card's subject (its title) when it has one, in the
 * card's language (`locale`; English by default).
 */
export function confirmDialog(button: CardButton, subject?: string, locale?: string): ConfirmDialog {
  return {
    title: t(locale, 'confirm-dialog-title'),
    text: subject
      ? t(locale, 'confirm-dialog-text-about', button.label, subject)
      : t(locale, 'confirm-dialog-text', button.label),
    confirm: button.label,
    deny: t(locale, 'confirm-dialog-deny'),
  };
}

/** A dialog on every danger button of a card (when nothing is known about their commands). */
export function dangerDialogs(card: Card): Map<string, ConfirmDialog> {
  const dialogs = new Map<string, ConfirmDialog>();
  for (const button of card.buttons ?? []) {
    if (button.style === 'danger')
      dialogs.set(button.actionId, confirmDialog(button, card.title, card.locale));
  }
  return dialogs;
}

/**
 * The dialog policy: destructive (danger) buttons whose command does not ask for confirmation itself
 * get a dialog. A command with `confirm` already answers the click with a Confirm/Cancel card, and
 * the Confirm button of that card is the confirmation, so neither gets a second question.
 */
export function confirmDialogs(actions: ActionStore, registry: CommandRegistry<unknown>): ConfirmDialogs {
  return async (card) => {
    const dialogs = new Map<string, ConfirmDialog>();
    for (const button of card.buttons ?? []) {
      if (button.style !== 'danger') continue;
      const action = await (actions.kindOf ?? actions.load).call(actions, button.actionId);
      if (!action || action.confirmed) continue;
      const command = registry.get(action.command);
      if (command && !command.confirm)
        dialogs.set(button.actionId, confirmDialog(button, card.title, card.locale));
    }
    return dialogs;
  };
}
