/**
 * Inputs that name a stored meaning: a button click (its stored command and arguments, or the Cancel
 * of a confirmation) and a form's answers (its command, fixed arguments and owner).
 */
import { t } from '../i18n/translate';
import { type ActionStore, DISMISS_COMMAND } from './actions';
import { APPROVE_COMMAND, DENY_COMMAND } from './approval-card';
import type { ApprovalGate } from './approval-gate';
import { validateArgs } from './bind';
import type { CardSurface } from './card-surface';
import { type AnyCommand, formOwnerKey, type Invocation } from './command';
import type { Confirmation } from './command-execution';
import { PermissionDenied, UsageError } from './errors';
import { replyLanguage } from './languages';
import type { CommandRegistry } from './registry';

/** A command ready to run: its arguments bound, as whom, and the Confirm it answers if any. */
export interface CommandRequest<S> {
  command: AnyCommand<S>;
  args: Record<string, unknown>;
  invocation: Invocation;
  confirmation?: Confirmation;
}

/** Where stored inputs are looked up. */
export interface StoredInputDeps<S> {
  registry: CommandRegistry<S>;
  actions: ActionStore;
  /** Takes the Approve and Deny presses of approval cards. */
  approvals?: ApprovalGate;
}

/** The handling in progress: the command it is counted as, named as soon as it is known. */
export interface NamedAttempt {
  command: string;
}

/** A button click: its stored command, or the Cancel of a confirmation (handled here: undefined). */
export async function clickRequest<S>(
  deps: StoredInputDeps<S>,
  actionId: string,
  invocation: Invocation,
  surface: CardSurface,
  attempt: NamedAttempt,
): Promise<CommandRequest<S> | undefined> {
  const action = await deps.actions.load(actionId);
  if (!action || action.expiresAt < Date.now()) {
    throw UsageError.inWords((say) => ({
      message: say.t('button-expired'),
      hint: say.t('button-expired-hint'),
    }));
  }
  if (action.command === DISMISS_COMMAND) {
    await dismiss(deps.actions, actionId, action.args, surface, replyLanguage(invocation, 'private'));
    return undefined;
  }
  if ((action.command === APPROVE_COMMAND || action.command === DENY_COMMAND) && deps.approvals) {
    return approvalRequest(deps, deps.approvals, action, invocation, surface, attempt);
  }
  const command = deps.registry.get(action.command);
  if (!command) throw UsageError.inWords((say) => ({ message: say.t('button-command-gone') }));
  attempt.command = command.name;
  if (action.confirmed) await deps.actions.remove(actionId);
  const args = validateArgs(command as AnyCommand<unknown>, action.args);
  const confirmed = action.confirmed === true ? { confirmation: { target: action.target } } : {};
  return { command, args, invocation, ...confirmed };
}

/**
 * A press on an approval card: Deny is handled here (undefined); Approve is the request's command
 * with the arguments the card showed, as a confirmation naming the request.
 */
async function approvalRequest<S>(
  deps: StoredInputDeps<S>,
  gate: ApprovalGate,
  action: { command: string; args: Record<string, unknown> },
  invocation: Invocation,
  surface: CardSurface,
  attempt: NamedAttempt,
): Promise<CommandRequest<S> | undefined> {
  const id = String(action.args.approval ?? '');
  if (action.command === DENY_COMMAND) {
    await gate.deny(id, invocation, surface);
    return undefined;
  }
  const asked = await gate.request(id);
  const command = deps.registry.get(asked.command);
  if (!command) throw UsageError.inWords((say) => ({ message: say.t('button-approval-command-gone') }));
  attempt.command = command.name;
  const args = validateArgs(
    command as AnyCommand<unknown>,
    JSON.parse(asked.args) as Record<string, unknown>,
  );
  return { command, args, invocation, confirmation: { target: asked.target, approval: id } };
}

/** A form's answers: its command with the form's arguments and the answers, run privately. */
export async function formRequest<S>(
  deps: StoredInputDeps<S>,
  formId: string,
  values: Record<string, string>,
  invocation: Invocation,
  attempt: NamedAttempt,
): Promise<CommandRequest<S>> {
  const form = await deps.actions.loadForm(formId);
  if (!form || form.expiresAt < Date.now()) {
    throw UsageError.inWords((say) => ({ message: say.t('form-expired'), hint: say.t('form-expired-hint') }));
  }
  if (form.userKey !== formOwnerKey(invocation)) {
    throw PermissionDenied.inWords((say) => ({ message: say.t('form-not-yours') }));
  }
  await deps.actions.removeForm(formId);
  const command = deps.registry.get(form.command);
  if (!command) throw UsageError.inWords((say) => ({ message: say.t('form-command-gone') }));
  attempt.command = command.name;
  const answers: Record<string, unknown> = {};
  for (const field of form.fields) {
    const value = values[field.name];
    if (value !== undefined && value !== '') answers[field.name] = value;
  }
  const args = validateArgs(command as AnyCommand<unknown>, { ...form.args, ...answers });
  return { command, args, invocation: { ...invocation, isPrivate: true } };
}

/** Cancel on a confirmation: voids its Confirm button, unless that was already used. */
async function dismiss(
  actions: ActionStore,
  actionId: string,
  args: Record<string, unknown>,
  surface: CardSurface,
  locale: string,
): Promise<void> {
  await actions.remove(actionId);
  const confirmId = typeof args.confirmActionId === 'string' ? args.confirmActionId : undefined;
  const pending = confirmId ? await actions.load(confirmId) : undefined;
  if (!pending) {
    await surface.reply({
      text: t(locale, 'confirm-already-answered'),
      status: 'info',
      visibility: 'private',
      locale,
    });
    return;
  }
  await actions.remove(confirmId as string);
  await surface.reply({
    text: t(locale, 'confirm-cancelled'),
    status: 'info',
    visibility: 'private',
    locale,
  });
}
