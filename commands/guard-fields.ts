/**
 * A tool's lock and freeze windows as card fields, for every card that shows the tool: `/tool lock`,
 * `/tool freezes`, `/tool status`.
 */
import type { ChangeGuardStore, ToolFreeze, ToolLock } from '../src/core/change-guard';
import { insideWindow, windowEnd, windowStart, windowText } from '../src/core/freeze-window';
import type { CardField } from '../src/core/reply';
import { absoluteText, cardTime } from '../src/core/times';
import { type Translator, translator } from '../src/i18n/translate';

/** The fields that describe a lock: who, since, until, why. */
export function lockFields(lock: ToolLock, say: Translator = translator('en')): CardField[] {
  return [
    { label: say.t('guard-fields-locked-by'), value: lock.name },
    { label: say.t('guard-fields-since'), value: '', time: cardTime(lock.since) ?? { at: lock.since } },
    {
      label: say.t('guard-fields-until'),
      value: '',
      time: cardTime(lock.until, { relative: true }) ?? { at: lock.until },
    },
    ...(lock.reason ? [{ label: say.t('guard-fields-reason'), value: lock.reason }] : []),
  ];
}

/** The lock and freeze windows of a tool as card fields, and whether they hold now. */
export interface GuardState {
  /** `Locked by`, `Since`, `Until`, `Reason` (or `Lock: not locked`), then one field per window. */
  fields: CardField[];
  /** True when a guarded command would be refused now. */
  blocked: boolean;
  freezes: ToolFreeze[];
}

/**
 * What holds a tool's changes, for any card that shows the tool (`/tool freezes`, the status card):
 * the lock in force and each freeze window with when it holds.
 */
export async function guardState(
  guards: ChangeGuardStore,
  tool: string,
  now = Date.now(),
  say: Translator = translator('en'),
): Promise<GuardState> {
  const { lock, freezes } = await guards.state(tool, now);
  const fields: CardField[] = lock
    ? lockFields(lock, say)
    : [{ label: say.t('guard-fields-lock'), value: say.t('guard-fields-not-locked') }];
  for (const freeze of freezes) {
    const state = insideWindow(freeze, now)
      ? say.t(
          'guard-fields-holds-until',
          absoluteText({ at: windowEnd(freeze, now) }, freeze.zone, say.language),
        )
      : say.t(
          'guard-fields-next-from',
          absoluteText({ at: windowStart(freeze, now) }, freeze.zone, say.language),
        );
    fields.push({
      label: say.t('guard-fields-freeze', freeze.id),
      value: say.t('guard-fields-freeze-value', windowText(freeze), freeze.zone, freeze.by, state),
    });
  }
  const blocked = lock !== undefined || freezes.some((freeze) => insideWindow(freeze, now));
  return { fields, blocked, freezes };
}
