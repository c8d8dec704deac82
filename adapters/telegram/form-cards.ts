/**
 * The messages of a step-by-step form: the question of each step, with its Cancel and Skip buttons.
 * Button data is `~c:<form id>` (cancel) or `~s:<form id>` (skip): `~` never starts an action id.
 */
import type { FormField } from '../../src/core/forms';
import type { Card } from '../../src/core/reply';
import type { FormConversation } from './form-store';

/** Prefix of form-control button data. */
export const FORM_CONTROL_PREFIX = '~';

/** `10 min`, `45 s`. */
export function duration(ms: number): string {
  return ms >= 90_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(1, Math.round(ms / 1000))} s`;
}

/** The question of the current step, with Cancel (and Skip for an optional field). */
export function promptCard(conversation: FormConversation): Card {
  const { form, step } = conversation;
  const field = form.fields[step] as FormField;
  const lines: string[] = [];
  if (step === 0 && form.intro) lines.push(form.intro);
  lines.push(
    `Step ${step + 1} of ${form.fields.length}: ${field.label}${field.optional ? ' (optional)' : ''}`,
  );
  if (field.placeholder) lines.push(`For example: ${field.placeholder}`);
  if (field.secret) {
    lines.push(
      'Send it as your next message. It is a secret: I delete your message as soon as I have read it, and never show it.',
    );
  } else {
    lines.push(
      field.multiline
        ? 'Send it as your next message (several lines are fine).'
        : 'Send it as your next message.',
    );
  }
  const buttons = [{ label: 'Cancel', actionId: `${FORM_CONTROL_PREFIX}c:${conversation.formId}` }];
  if (field.optional)
    buttons.push({ label: 'Skip', actionId: `${FORM_CONTROL_PREFIX}s:${conversation.formId}` });
  const left = duration(conversation.expiresAt - Date.now());
  return {
    title: form.title,
    text: lines.join('\n'),
    status: 'info',
    buttons,
    footer: `/cancel stops it too. The form times out in ${left}.`,
  };
}
