import type { types } from '@slack/bolt';
import type { FormSpec } from '../../src/core/forms';
import { type Translator, translator } from '../../src/i18n/translate';
import { chunkEscaped, mrkdwn, plain } from './blocks';

/** `callback_id` of Deckhand's modals. */
export const FORM_CALLBACK_ID = 'dh.form';

/** What a modal remembers between `views.open` and its submission (its `private_metadata`). */
export interface FormMetadata {
  /** Stored form id (the command runner's). */
  formId: string;
  /** Channel the form was opened from, where the result is posted. */
  channel: string;
  thread?: string;
  /** `response_url` of the interaction that opened the form, when there was one. */
  responseUrl?: string;
}

const FIELD_BLOCK = 'f.';
const SECRET_BLOCK = 's.';

/**
 * A form as a Slack modal: one plain-text input per field (block ids carry the field name and whether
 * it is a secret). Values typed here go to the bot only; they are never posted in the channel.
 */
export function formView(
  form: FormSpec,
  metadata: FormMetadata,
  say: Translator = translator('en'),
): types.ModalView {
  const blocks: types.KnownBlock[] = [];
  if (form.intro) {
    for (const piece of chunkEscaped(form.intro, 3000)) blocks.push({ type: 'section', text: mrkdwn(piece) });
  }
  for (const field of form.fields) {
    const element: types.PlainTextInput = { type: 'plain_text_input', action_id: 'value' };
    if (field.multiline) element.multiline = true;
    if (field.placeholder) element.placeholder = plain(field.placeholder, 150);
    const input: types.InputBlock = {
      type: 'input',
      block_id: `${field.secret ? SECRET_BLOCK : FIELD_BLOCK}${field.name}`,
      label: plain(field.label, 2000),
      element,
      optional: field.optional === true,
    };
    if (field.secret) input.hint = plain(say.t('slack-form-secret-hint'), 2000);
    blocks.push(input);
  }
  return {
    type: 'modal',
    callback_id: FORM_CALLBACK_ID,
    private_metadata: JSON.stringify(metadata),
    title: plain(form.title, 24),
    submit: plain(form.submitLabel ?? say.t('slack-form-submit'), 24),
    close: plain(say.t('slack-form-cancel'), 24),
    blocks,
  };
}

/** Reads a submitted modal: the metadata and the answers by field name; secrets are registered. */
export function readSubmission(view: {
  private_metadata: string;
  state: { values: Record<string, Record<string, { value?: string | null }>> };
}): { metadata: FormMetadata; values: Record<string, string> } | undefined {
  let metadata: FormMetadata;
  try {
    metadata = JSON.parse(view.private_metadata) as FormMetadata;
  } catch {
    return undefined;
  }
  if (typeof metadata?.formId !== 'string' || typeof metadata.channel !== 'string') return undefined;
  const values: Record<string, string> = {};
  for (const [blockId, actions] of Object.entries(view.state.values)) {
    const secret = blockId.startsWith(SECRET_BLOCK);
    if (!secret && !blockId.startsWith(FIELD_BLOCK)) continue;
    const value = actions.value?.value ?? '';
    values[blockId.slice(2)] = value;
  }
  return { metadata, values };
}
