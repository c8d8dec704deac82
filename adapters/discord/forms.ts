/**
 * Forms as Discord modals: a Label-wrapped text input per field (secrets say they are kept secret;
 * Discord cannot mask typing), the intro as a text display. A modal can only be the first answer to
 * an interaction, so when the command asks for a form after Deckhand already acknowledged, the user
 * gets an "Open form" button instead, whose click shows the modal.
 */
import {
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  type APIModalInteractionResponseCallbackComponent,
  type APIModalInteractionResponseCallbackData,
  ButtonStyle,
  ComponentType,
  TextInputStyle,
} from 'discord.js';
import type { FormSpec } from '../../src/core/forms';
import type { KeyValueStore } from '../../src/core/host';
import { type Translator, translator } from '../../src/i18n/translate';
import { truncate } from './escape';

/** custom_id prefix of a modal: `m:<formId>`. */
export const MODAL_PREFIX = 'm:';
/** custom_id prefix of an "Open form" button: `f:<formId>`. */
export const FORM_BUTTON_PREFIX = 'f:';

/** Discord shows at most five components in a modal. */
const MAX_MODAL_COMPONENTS = 5;

/** The modal for a stored form. */
export function modalFor(
  formId: string,
  form: FormSpec,
  say: Translator = translator('en'),
): APIModalInteractionResponseCallbackData {
  const components: APIModalInteractionResponseCallbackComponent[] = [];
  const fields = form.fields.slice(0, MAX_MODAL_COMPONENTS);
  if (form.intro && fields.length < MAX_MODAL_COMPONENTS) {
    components.push({ type: ComponentType.TextDisplay, content: truncate(form.intro, 4000) });
  }
  for (const field of fields) {
    const description = field.secret ? say.t('discord-form-secret-field') : undefined;
    components.push({
      type: ComponentType.Label,
      label: truncate(field.label, 45),
      ...(description ? { description } : {}),
      component: {
        type: ComponentType.TextInput,
        custom_id: field.name,
        style: field.multiline ? TextInputStyle.Paragraph : TextInputStyle.Short,
        required: field.optional !== true,
        ...(field.placeholder ? { placeholder: truncate(field.placeholder, 100) } : {}),
      },
    });
  }
  return { custom_id: `${MODAL_PREFIX}${formId}`, title: truncate(form.title, 45), components };
}

/** The row with the "Open form" button shown when a modal can no longer be the first answer. */
export function formButtonRow(
  formId: string,
  label = translator('en').t('discord-form-open'),
): APIActionRowComponent<APIComponentInMessageActionRow> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Primary,
        custom_id: `${FORM_BUTTON_PREFIX}${formId}`,
        label,
      },
    ],
  };
}

interface SubmittedComponent {
  type: number;
  custom_id?: string;
  value?: string;
  component?: SubmittedComponent;
  components?: SubmittedComponent[];
}

/** The values of a submitted modal by field name (Label-wrapped or legacy action-row inputs). */
export function modalValues(components: readonly unknown[]): Record<string, string> {
  const values: Record<string, string> = {};
  const visit = (component: SubmittedComponent) => {
    if (component.type === ComponentType.TextInput && component.custom_id !== undefined) {
      values[component.custom_id] = component.value ?? '';
    }
    if (component.component) visit(component.component);
    for (const child of component.components ?? []) visit(child);
  };
  for (const component of components as SubmittedComponent[]) visit(component);
  return values;
}

/**
 * Remembers the form specs Discord needs to draw a modal later (the "Open form" button), for as long
 * as the core keeps the form open. Specs hold field names and labels, never answers.
 */
export class FormStash {
  constructor(
    private readonly stash: KeyValueStore,
    private readonly ttlSeconds = 600,
  ) {}

  async remember(formId: string, form: FormSpec): Promise<void> {
    const { args: _args, ...spec } = form;
    await this.stash.set(formId, JSON.stringify(spec), { ttlMs: this.ttlSeconds * 1000 });
  }

  async recall(formId: string): Promise<FormSpec | undefined> {
    if (!/^[0-9A-Za-z]{1,32}$/.test(formId)) return undefined;
    const raw = await this.stash.get(formId);
    return raw ? ({ ...(JSON.parse(raw) as Omit<FormSpec, 'args'>), args: {} } as FormSpec) : undefined;
  }
}
