/** One input of a form. */
export interface FormField {
  /** Argument name of the command the form completes. */
  name: string;
  label: string;
  /** A secret: hidden where the platform can, never echoed, never logged. */
  secret?: boolean;
  placeholder?: string;
  multiline?: boolean;
  optional?: boolean;
}

/**
 * A form that completes a command: the fixed `args` plus the user's answers run `command` as if typed
 * privately by the person who submitted it. A platform renders it as a modal or as a step-by-step
 * private conversation, the shell as prompts.
 */
export interface FormSpec {
  title: string;
  /** Shown above the fields. */
  intro?: string;
  fields: FormField[];
  command: string;
  args: Record<string, unknown>;
  submitLabel?: string;
  /**
   * The language its reader reads (set by the core: the reader's, as for what only they see), for
   * the words a platform adds around it.
   */
  locale?: string;
}

/** A stored form waiting for its answers. */
export interface StoredForm extends FormSpec {
  conversationId: string;
  /** Only this user may submit it. */
  userKey: string;
  expiresAt: number;
}
