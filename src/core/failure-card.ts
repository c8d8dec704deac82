/**
 * The claim's marks on a failure card: the "I'm on it" button of an unclaimed failure; the holder's
 * name, Hand off and Release once claimed; and the recovery's edit. The announcement itself (log
 * lines, exit code, restarts, Restart / Logs / Roll back) is the service's own (commands/toolhost).
 */
import {
  type FailureClaim,
  type FailureScope,
  type FailureState,
  scopeArgs,
  scopeWords,
} from './failure-claim';
import type { ActionRequest, CardField, DraftCard } from './reply';
import { cardTime } from './times';
import type { WatchEvent } from './watch';

/** Command of the I'm on it button (its arguments: `tool`, and `job` for a job's failure). */
export const CLAIM_COMMAND = 'tool claim';
/** Command of the Hand off button. */
export const HANDOFF_COMMAND = 'tool handoff';
/** Command of the Release button. */
export const RELEASE_COMMAND = 'tool release';

const CLAIM_COMMANDS = new Set([CLAIM_COMMAND, HANDOFF_COMMAND, RELEASE_COMMAND]);
const CLAIM_LABELS = new Set(['On it', 'Handed off to', 'Was on it']);

/** The I'm on it button of a failure of `scope`. */
export function claimAction(scope: FailureScope): ActionRequest {
  return { label: "I'm on it", command: CLAIM_COMMAND, args: scopeArgs(scope), style: 'primary' };
}

function withoutClaimMarks(card: DraftCard): DraftCard {
  return {
    ...card,
    fields: (card.fields ?? []).filter((f) => !CLAIM_LABELS.has(f.label)),
    actions: (card.actions ?? []).filter((a) => !CLAIM_COMMANDS.has(a.command)),
  };
}

function holderField(label: string, claim: FailureClaim): CardField {
  return { label, value: claim.name, time: cardTime(claim.since) ?? { at: claim.since } };
}

/** The failure card of a record now: who is on it (if anyone), and the buttons that fit. */
export function claimedCard(state: FailureState): DraftCard {
  const base = withoutClaimMarks(state.card ?? { title: `${state.scope.tool}: failed` });
  const { claim, scope } = state;
  if (!claim) return { ...base, actions: [...(base.actions ?? []), claimAction(scope)] };
  const args = scopeArgs(scope);
  const fields = [...(base.fields ?? []), holderField('On it', claim)];
  if (claim.offeredTo) fields.push({ label: 'Handed off to', value: claim.offeredTo });
  const note = claim.offeredTo
    ? `${claim.name} hands this off to ${claim.offeredTo}: press I'm on it to take it.`
    : `${claim.name} is on it: repeats of this failure are not announced until it recovers or the claim is released.`;
  return {
    ...base,
    text: [base.text, note].filter(Boolean).join('\n'),
    fields,
    actions: [
      ...(base.actions ?? []),
      ...(claim.offeredTo ? [claimAction(scope)] : []),
      { label: 'Hand off', command: HANDOFF_COMMAND, args },
      { label: 'Release', command: RELEASE_COMMAND, args },
    ],
  };
}

/** The failure card once its resource recovered: the claim's holder kept, no claim buttons. */
export function recoveredCard(state: FailureState, recovery: WatchEvent): DraftCard {
  const base = withoutClaimMarks(state.card ?? { title: `${state.scope.tool}: failed` });
  const what = `${state.scope.tool} ${scopeWords(state.scope)}`;
  return {
    ...base,
    title: `${state.scope.tool}: ${scopeWords(state.scope)} recovered`,
    status: 'success',
    text: [base.text, `Recovered: ${recovery.detail || `${what} is ${recovery.to}`}`]
      .filter(Boolean)
      .join('\n'),
    fields: [
      ...(base.fields ?? []),
      ...(state.claim ? [holderField('Was on it', state.claim)] : []),
      { label: 'Recovered', value: '', time: cardTime(recovery.at) ?? { at: recovery.at } },
    ],
    actions: (base.actions ?? []).filter((a) => a.label === 'Logs' || a.label === 'Show'),
  };
}
