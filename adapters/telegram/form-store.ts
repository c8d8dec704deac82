/**
 * Redis state of step-by-step forms: the one conversation each user may have open (which form, which
 * step, the answers so far, the prompt to edit), and forms waiting for a user who has not started a
 * private chat with the bot yet, in the host's `tg:form` and `tg:form-pending` namespaces. Everything
 * expires with the form. Answers to secret fields are sealed with the host's sealer (`SECRET_KEY`).
 */
import type { FormSpec } from '../../src/core/forms';
import type { KeyValueStore, ValueSealer } from '../../src/core/host';

/** A form being filled in, in a user's private chat. */
export interface FormConversation {
  formId: string;
  form: FormSpec;
  /** Index of the field being asked. */
  step: number;
  /** Plain answers so far. */
  answers: Record<string, string>;
  /** Sealed answers to secret fields. */
  secrets: Record<string, string>;
  /** The message asking the current question (edited when answered, cancelled or timed out). */
  promptMessageId?: number;
  expiresAt: number;
}

/** A form waiting for its user to open a private chat with the bot. */
export interface PendingForm {
  formId: string;
  form: FormSpec;
  userId: number;
  expiresAt: number;
}

/** The slot secret answers are sealed for. */
const ANSWER_CONTEXT = 'telegram-form-answer';

/** The form state of one bot. */
export class FormStore {
  constructor(
    private readonly conversations: KeyValueStore,
    private readonly pending: KeyValueStore,
    private readonly sealer: ValueSealer,
    private readonly botId: string,
  ) {}

  /**
   * The conversation a user has open, if any. Answers sealed with an older key are sealed again; a
   * conversation whose answers no key opens (`SECRET_KEY` changed without `SECRET_KEY_PREVIOUS`)
   * cannot finish, so it is ended and counts as none.
   */
  async get(userId: number): Promise<FormConversation | undefined> {
    const raw = await this.conversations.get(this.conversationKey(userId));
    if (!raw) return undefined;
    const conversation = JSON.parse(raw) as FormConversation;
    let stale = false;
    for (const [name, sealed] of Object.entries(conversation.secrets)) {
      let opened: { plaintext: string; stale: boolean };
      try {
        opened = this.sealer.open(sealed, ANSWER_CONTEXT);
      } catch {
        await this.conversations.delete(this.conversationKey(userId));
        return undefined;
      }
      if (!opened.stale) continue;
      conversation.secrets[name] = this.seal(opened.plaintext);
      stale = true;
    }
    if (stale) await this.save(userId, conversation);
    return conversation;
  }

  /**
   * Saves a user's conversation. It is kept a minute past its expiry, so whoever sees it next can
   * still say on its prompt that it timed out.
   */
  async save(userId: number, conversation: FormConversation): Promise<void> {
    const ttlMs = Math.max(1, conversation.expiresAt - Date.now()) + 60_000;
    await this.conversations.set(this.conversationKey(userId), JSON.stringify(conversation), { ttlMs });
  }

  /** Ends a user's conversation if it is still the given form; true when it was. */
  async end(userId: number, formId: string): Promise<boolean> {
    const current = await this.get(userId);
    if (current?.formId !== formId) return false;
    return this.conversations.delete(this.conversationKey(userId));
  }

  /** Keeps a form for a user who still has to open the private chat. */
  async park(pending: PendingForm): Promise<void> {
    const ttlMs = Math.max(1, pending.expiresAt - Date.now());
    await this.pending.set(this.pendingKey(pending.formId), JSON.stringify(pending), { ttlMs });
  }

  /** Takes a parked form (single use). */
  async unpark(formId: string): Promise<PendingForm | undefined> {
    if (!/^[0-9A-Za-z]{1,32}$/.test(formId)) return undefined;
    const raw = await this.pending.take(this.pendingKey(formId));
    return raw ? (JSON.parse(raw) as PendingForm) : undefined;
  }

  /** Seals a secret answer. */
  seal(value: string): string {
    return this.sealer.seal(value, ANSWER_CONTEXT);
  }

  /** Opens a sealed answer. */
  open(value: string): string {
    return this.sealer.open(value, ANSWER_CONTEXT).plaintext;
  }

  private conversationKey(userId: number): string {
    return `${this.botId}:${userId}`;
  }

  private pendingKey(formId: string): string {
    return `${this.botId}:${formId}`;
  }
}
