/**
 * A destructive or protected command's target: bound before the question is asked (`resolve`), and
 * checked again when the question is answered (Confirm, or the approval that completes a request).
 */

import { translator } from '../i18n/translate';
import type { StoredAction } from './actions';
import type { AskedRun } from './approval-gate';
import type { AnyCommand, Invocation } from './command';
import { replyLanguage } from './languages';
import type { PlatformWords } from './platform-words';
import { fingerprint, targetChanged } from './target';

/** The command as it would run: its target bound (`resolve`), the question, the change shown. */
export async function askedRun<S>(
  services: S,
  command: AnyCommand<S>,
  args: Record<string, unknown>,
  invocation: Invocation,
  tool = '',
  here?: PlatformWords,
): Promise<AskedRun> {
  const bound = command.resolve ? await command.resolve({ args, invocation, services, here }) : undefined;
  const boundArgs = (bound?.args ?? args) as Record<string, unknown>;
  const fallback = `Run /${command.name}${tool ? ` ${tool}` : ''}?`;
  const say = translator(replyLanguage(invocation));
  const question = command.confirm?.(boundArgs as never, bound as never, say) ?? fallback;
  const version = bound?.version !== undefined ? { version: bound.version } : {};
  return {
    command: command.name,
    tool,
    args: boundArgs,
    question,
    ...(bound ? { target: { label: bound.label, ...version } } : {}),
    ...(bound?.preview ? { preview: bound.preview } : {}),
  };
}

/** The target's label when it changed since the question named it (same arguments, same version). */
async function changedLabel<S>(
  services: S,
  command: AnyCommand<S>,
  args: Record<string, unknown>,
  invocation: Invocation,
  target: StoredAction['target'],
): Promise<string | undefined> {
  if (!command.resolve) return undefined;
  const current = await command.resolve({ args, invocation, services });
  const sameArgs = fingerprint(current.args) === fingerprint(args);
  return sameArgs && current.version === target?.version ? undefined : (target?.label ?? current.label);
}

/** True when the target changed since the question named it. */
export async function targetMoved<S>(
  services: S,
  command: AnyCommand<S>,
  args: Record<string, unknown>,
  invocation: Invocation,
  target: StoredAction['target'],
): Promise<boolean> {
  return (await changedLabel(services, command, args, invocation, target)) !== undefined;
}

/**
 * At Confirm: the command's target must still be the one the question named; a target that is gone
 * says it does not exist (thrown by `resolve`), one that changed says so.
 */
export async function checkTarget<S>(
  services: S,
  command: AnyCommand<S>,
  args: Record<string, unknown>,
  invocation: Invocation,
  target: StoredAction['target'],
): Promise<void> {
  const label = await changedLabel(services, command, args, invocation, target);
  if (label !== undefined) throw targetChanged(label);
}
