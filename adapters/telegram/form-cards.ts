/**
 * The messages of a step-by-step form: the question of each step, with its Cancel and Skip buttons.
 * Button data is `~c:<form id>` (cancel) or `~s:<form id>` (skip): `~` never starts an action id.
 */
import type { FormField } from '../../src/core/forms';
import type { Card } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import type { FormConversation } from './form-store';

/** Prefix of form-control button data. */
export const FORM_CONTROL_PREFIX = '~';

/** `10 min`, `45 s`. */
export function duration(ms: number): string {
  return ms >= 90_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(1, Math.round(ms / 1000))} s`;
}

/** The question of the current step, with Cancel (and Skip for an optional field). */
export function promptCard(conversation: FormConversation, say: Translator = translator('en')): Card {
  const { form, step } = conversation;
  const field = form.fields[step] as FormField;
  const lines: string[] = [];
  if (step === 0 && form.intro) lines.push(form.intro);
  const label = field.optional ? say.t('telegram-form-optional', field.label) : field.label;
  lines.push(say.t('telegram-form-step', step + 1, form.fields.length, label));
  if (field.placeholder) lines.push(say.t('telegram-form-example', field.placeholder));
  if (field.secret) {
    lines.push(say.t('telegram-form-send-secret'));
  } else {
    lines.push(field.multiline ? say.t('telegram-form-send-lines') : say.t('telegram-form-send'));
  }
  const buttons = [
    { label: say.t('telegram-form-cancel'), actionId: `${FORM_CONTROL_PREFIX}c:${conversation.formId}` },
  ];
  if (field.optional)
    buttons.push({
      label: say.t('telegram-form-skip'),
      actionId: `${FORM_CONTROL_PREFIX}s:${conversation.formId}`,
    });
  const left = duration(conversation.expiresAt - Date.now());
  return {
    title: form.title,
    text: lines.join('\n'),
    status: 'info',
    buttons,
    footer: say.t('telegram-form-footer', left),
    locale: say.language,
  };
}
