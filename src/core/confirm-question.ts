/** The Confirm/Cancel card a destructive command asks before it runs (its buttons stored for 10 minutes). */
import { DISMISS_COMMAND } from './actions';
import type { AskedRun } from './approval-gate';
import type { CardPublisher } from './card-publisher';
import type { CardSurface } from './card-surface';
import type { AnyCommand, Invocation } from './command';

/** Posts the question `bound` asks about `command`, with a Confirm button that runs it and a Cancel. */
export async function askConfirmation<S>(
  publisher: CardPublisher,
  bound: AskedRun,
  command: AnyCommand<S>,
  invocation: Invocation,
  surface: CardSurface,
): Promise<void> {
  const { args: boundArgs, question } = bound;
  const confirm = await publisher.storeAction(
    {
      label: 'Confirm',
      command: command.name,
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
