/** The Confirm/Cancel card a destructive command asks before it runs (its buttons stored for 10 minutes). */
import { translator } from '../i18n/translate';
import { DISMISS_COMMAND } from './actions';
import type { AskedRun } from './approval-gate';
import type { CardPublisher } from './card-publisher';
import type { CardSurface } from './card-surface';
import type { AnyCommand, Invocation } from './command';
import { replyLanguage } from './languages';

/** Posts the question `bound` asks about `command`, with a Confirm button that runs it and a Cancel. */
export async function askConfirmation<S>(
  publisher: CardPublisher,
  bound: AskedRun,
  command: AnyCommand<S>,
  invocation: Invocation,
  surface: CardSurface,
): Promise<void> {
  const { args: boundArgs, question } = bound;
  const locale = replyLanguage(invocation);
  const say = translator(locale);
  const confirm = await publisher.storeAction(
    {
      label: say.t('confirm-button'),
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
      label: say.t('confirm-cancel'),
      command: DISMISS_COMMAND,
      args: { confirmActionId: confirm.actionId },
      ttlSeconds: 600,
    },
    invocation.conversationId,
  );
  await surface.reply({
    title: say.t('confirm-title'),
    text: publisher.formOf(invocation.conversationId).text(question),
    ...(bound.preview ? { code: bound.preview } : {}),
    status: 'warning',
    buttons: [confirm, cancel],
    footer: say.t('confirm-expires', 10),
    locale,
  });
}
