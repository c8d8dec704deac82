/**
 * Redis state of step-by-step forms: the one conversation each user may have open (which form, which
 * step, the answers so far, the prompt to edit), and forms waiting for a user who has not started a
 * private chat with the bot yet. Everything expires with the form. Answers to secret fields are sealed
 * with AES-256-GCM (key: `SECRET_KEY`, or a random per-process key when it is unset).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FormSpec } from '../../src/core/forms';

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

function keyFrom(secretKey: string | undefined): Buffer {
  if (!secretKey) return randomBytes(32);
  return /^[0-9a-fA-F]{64}$/.test(secretKey)
    ? Buffer.from(secretKey, 'hex')
    : Buffer.from(secretKey, 'base64');
}

/** The form state of one bot. */
export class FormStore {
  private readonly key: Buffer;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly botId: string,
    secretKey: string | undefined,
  ) {
    this.key = keyFrom(secretKey);
  }

  /** The conversation a user has open, if any. */
  async get(userId: number): Promise<FormConversation | undefined> {
    const raw = await this.redis.get(this.conversationKey(userId));
    return raw ? (JSON.parse(raw) as FormConversation) : undefined;
  }

  /**
   * Saves a user's conversation. It is kept a minute past its expiry, so whoever sees it next can
   * still say on its prompt that it timed out.
   */
  async save(userId: number, conversation: FormConversation): Promise<void> {
    const ttl = Math.max(1, conversation.expiresAt - Date.now()) + 60_000;
    await this.redis.set(this.conversationKey(userId), JSON.stringify(conversation), 'PX', ttl);
  }

  /** Ends a user's conversation if it is still the given form; true when it was. */
  async end(userId: number, formId: string): Promise<boolean> {
    const current = await this.get(userId);
    if (current?.formId !== formId) return false;
    return (await this.redis.del(this.conversationKey(userId))) === 1;
  }

  /** Keeps a form for a user who still has to open the private chat. */
  async park(pending: PendingForm): Promise<void> {
    const ttl = Math.max(1, pending.expiresAt - Date.now());
    await this.redis.set(this.pendingKey(pending.formId), JSON.stringify(pending), 'PX', ttl);
  }

  /** Takes a parked form (single use). */
  async unpark(formId: string): Promise<PendingForm | undefined> {
    if (!/^[0-9A-Za-z]{1,32}$/.test(formId)) return undefined;
    const raw = await this.redis.getdel(this.pendingKey(formId));
    return raw ? (JSON.parse(raw) as PendingForm) : undefined;
  }

  /** Seals a secret answer. */
  seal(value: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), sealed].map((b) => b.toString('base64')).join(':');
  }

  /** Opens a sealed answer. */
  open(value: string): string {
    const [iv, tag, data] = value.split(':');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv ?? '', 'base64'));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data ?? '', 'base64')), decipher.final()]).toString(
      'utf8',
    );
  }

  private conversationKey(userId: number): string {
    return `${this.prefix}tg:form:${this.botId}:${userId}`;
  }

  private pendingKey(formId: string): string {
    return `${this.prefix}tg:form-pending:${this.botId}:${formId}`;
  }
}
