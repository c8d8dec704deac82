/** The Confirm / Cancel card a destructive command asks with before it runs. */
import { DISMISS_COMMAND } from './actions';
import type { AskedRun } from './approval-gate';
import type { CardPublisher } from './card-publisher';
import type { CardSurface } from './card-surface';
import type { Invocation } from './command';

/**
 * Asks to confirm the command `bound` describes (its target bound): Confirm runs it with exactly
 * the arguments shown, Cancel dismisses the question; both expire in 10 minutes.
 */
export async function askConfirmation(
  publisher: CardPublisher,
  bound: AskedRun,
  invocation: Invocation,
  surface: CardSurface,
): Promise<void> {
  const { args: boundArgs, question } = bound;
  const confirm = await publisher.storeAction(
    {
      label: 'Confirm',
      command: bound.command,
      args: boundArgs,
      style: 'danger',
      confirmed: true,
      ttlSeconds: 600,
    },
    invocation.conversationId,
    bound.target,
  );
  const cancel = await publisher.storeAction(
    {
      label: 'Cancel',
      command: DISMISS_COMMAND,
      args: { confirmActionId: confirm.actionId },
      ttlSeconds: 600,
    },
    invocation.conversationId,
  );
  await surface.reply({
    title: 'Please confirm',
    text: publisher.formOf(invocation.conversationId).text(question),
    ...(bound.preview ? { code: bound.preview } : {}),
    status: 'warning',
    buttons: [confirm, cancel],
    footer: 'These buttons expire in 10 minutes.',
  });
}
