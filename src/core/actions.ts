import type { StoredForm } from './forms';

/** A button's stored meaning: which command to run with which arguments, until when. */
export interface StoredAction {
  command: string;
  args: Record<string, unknown>;
  /** Conversation the button was posted in. */
  conversationId: string;
  /** Unix ms after which the click is refused as expired. */
  expiresAt: number;
  /** Set on the Confirm button of a destructive command. */
  confirmed?: boolean;
  /**
   * On a Confirm button of a command with `resolve`: the bound target's label and version, checked
   * again at the click (the arguments hold its exact id).
   */
  target?: { label: string; version?: string };
}

/** Where buttons' meanings and open forms live (Redis in production: `src/store/actions.ts`). */
export interface ActionStore {
  /** Stores a form waiting for answers; returns its short id. */
  saveForm(form: StoredForm): Promise<string>;
  /** Loads a form; `undefined` when unknown or expired. */
  loadForm(id: string): Promise<StoredForm | undefined>;
  /** Deletes a form (forms are single use). */
  removeForm(id: string): Promise<void>;
  /** Stores an action and returns its short id (≤ 16 chars, fits every platform's payload limit). */
  save(action: StoredAction): Promise<string>;
  /** Loads an action; `undefined` when unknown or expired. */
  load(id: string): Promise<StoredAction | undefined>;
  /** Deletes an action (a one-shot confirm button). */
  remove(id: string): Promise<void>;
  /**
   * What a button's action runs, for the confirm-dialog policy of the card being rendered: what
   * never changes once saved, so it may come from what this process saved a moment ago (no read).
   * Unlike {@link load}, it says nothing about whether the action is still there to click.
   */
  kindOf?(id: string): Promise<Pick<StoredAction, 'command' | 'confirmed'> | undefined>;
}

/** Tools bound to conversations with `/tool bind`. */
export interface BindingStore {
  get(conversationId: string): Promise<string | undefined>;
  set(conversationId: string, tool: string): Promise<void>;
  /** Removes the conversation's binding; resolves with the tool it was bound to, if any. */
  remove(conversationId: string): Promise<string | undefined>;
}

/** Command name of the button that dismisses a confirmation. */
export const DISMISS_COMMAND = '__dismiss';
