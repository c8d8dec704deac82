/**
 * The claim's marks on a failure card: the "I'm on it" button of an unclaimed failure; the holder's
 * name, Hand off and Release once claimed; and the recovery's edit. The announcement itself (log
 * lines, exit code, restarts, Restart / Logs / Roll back) is the service's own (its feature's commands).
 */

import { LANGUAGES } from '../i18n/languages';
import { type MessageKey, type Translator, translator } from '../i18n/translate';
import { type FailureClaim, type FailureScope, type FailureState, scopeArgs } from './failure-claim';
import type { ActionRequest, CardField, DraftCard } from './reply';
import { cardTime } from './times';
import type { WatchEvent } from './watch';

/** Command of the I'm on it button (its arguments: the scope's, see {@link scopeArgs}). */
export const CLAIM_COMMAND = 'tool claim';
/** Command of the Hand off button. */
export const HANDOFF_COMMAND = 'tool handoff';
/** Command of the Release button. */
export const RELEASE_COMMAND = 'tool release';

const CLAIM_COMMANDS = new Set([CLAIM_COMMAND, HANDOFF_COMMAND, RELEASE_COMMAND]);

/** A message in every language: to recognise a label whatever language the card was written in. */
function everyWay(...keys: MessageKey[]): ReadonlySet<string> {
  return new Set(LANGUAGES.flatMap((language) => keys.map((key) => translator(language).t(key))));
}

const CLAIM_LABELS = everyWay(
  'failure-field-on-it',
  'failure-field-handed-off-to',
  'failure-field-was-on-it',
);

/** The announcement's buttons a recovered card keeps. */
const KEPT_BUTTONS = everyWay('announce-button-logs', 'announce-button-show');

/** The I'm on it button of a failure of `scope`. */
export function claimAction(scope: FailureScope, say: Translator = translator('en')): ActionRequest {
  return {
    label: say.t('failure-button-claim'),
    command: CLAIM_COMMAND,
    args: scopeArgs(scope),
    style: 'primary',
  };
}

/** The words of a failure card: the language its announcement was written in (English if unknown). */
function wordsOf(state: FailureState): Translator {
  return translator(state.card?.locale);
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
  const say = wordsOf(state);
  const base = withoutClaimMarks(state.card ?? { title: say.t('failure-title', state.scope.tool) });
  const { claim, scope } = state;
  if (!claim) return { ...base, actions: [...(base.actions ?? []), claimAction(scope, say)] };
  const args = scopeArgs(scope);
  const fields = [...(base.fields ?? []), holderField(say.t('failure-field-on-it'), claim)];
  if (claim.offeredTo) fields.push({ label: say.t('failure-field-handed-off-to'), value: claim.offeredTo });
  const note = claim.offeredTo
    ? say.t('failure-handed-off', claim.name, claim.offeredTo)
    : say.t('failure-claimed', claim.name);
  return {
    ...base,
    text: [base.text, note].filter(Boolean).join('\n'),
    fields,
    actions: [
      ...(base.actions ?? []),
      ...(claim.offeredTo ? [claimAction(scope, say)] : []),
      { label: say.t('failure-button-hand-off'), command: HANDOFF_COMMAND, args },
      { label: say.t('failure-button-release'), command: RELEASE_COMMAND, args },
    ],
  };
}

/** The failure card once its resource recovered: the claim's holder kept, no claim buttons. */
export function recoveredCard(state: FailureState, recovery: WatchEvent): DraftCard {
  const say = wordsOf(state);
  const base = withoutClaimMarks(state.card ?? { title: say.t('failure-title', state.scope.tool) });
  const what = `${recovery.kind} ${recovery.id}`;
  return {
    ...base,
    title: say.t('failure-recovered-title', state.scope.tool, what),
    status: 'success',
    text: [
      base.text,
      say.t('failure-recovered', recovery.detail || say.t('failure-recovered-state', what, recovery.to)),
    ]
      .filter(Boolean)
      .join('\n'),
    fields: [
      ...(base.fields ?? []),
      ...(state.claim ? [holderField(say.t('failure-field-was-on-it'), state.claim)] : []),
      {
        label: say.t('failure-field-recovered'),
        value: '',
        time: cardTime(recovery.at) ?? { at: recovery.at },
      },
    ],
    actions: (base.actions ?? []).filter((a) => KEPT_BUTTONS.has(a.label)),
  };
}
