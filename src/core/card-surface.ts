import type { MessageHandle } from './command';
import type { FormSpec } from './forms';
import type { Card } from './reply';

/** An adapter's surface: replies in the conversation of one invocation, as rendered cards. */
export interface CardSurface {
  reply(card: Card): Promise<MessageHandle | undefined>;
  update(handle: MessageHandle, card: Card): Promise<void>;
  /**
   * Shows a stored form to the user (modal, private conversation, prompts); its answers come back
   * through the command runner's `handleForm`. Absent where the platform or place cannot show one;
   * resolves `false` when it could not show this one (the command then answers as if there were no forms).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: adapters that always show it return nothing
  openForm?(formId: string, form: FormSpec): Promise<void | boolean>;
}
