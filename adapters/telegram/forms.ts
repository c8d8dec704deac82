/**
 * Forms as conversations: Telegram has no modals, so a form (a secret, an event's details) is asked
 * field by field in the user's private chat. Each question has a Cancel button (and Skip for optional
 * fields); `/cancel` works too; the form times out. A secret answer is deleted from the chat as soon
 * as it is read and is never shown. When the last answer arrives, the form's command runs as the
 * user, privately, through {@link CommandRunner.handleForm}.
 *
 * Button data is `~c:<form id>` (cancel) or `~s:<form id>` (skip): `~` never starts an action id.
 */
import type { Api, RawApi } from 'grammy';
import type { Message, User } from 'grammy/types';
import type { Logger } from 'pino';
import type { FormField, FormSpec } from '../../src/core/forms';
import { type LanguageStore, readerLanguage } from '../../src/core/languages';
import type { Card } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import { duration, FORM_CONTROL_PREFIX, promptCard } from './form-cards';
import type { FormConversation, FormStore } from './form-store';
import { telegramConversationId } from './ids';
import { isBlockedByUser, type TelegramMessenger } from './messenger';

/** Where the command that opened a form was typed. */
export interface FormOrigin {
  conversationId: string;
  chatId: number;
  isPrivate: boolean;
  threadId?: number;
  replyTo?: number;
}

/** What the form flow needs. */
export interface FormFlowDeps {
  store: FormStore;
  messenger: TelegramMessenger;
  api: Api<RawApi>;
  botId: string;
  botUsername(): string;
  timeoutMs: number;
  logger: Logger;
  /** Runs a completed form as `user`, privately. */
  submit(user: User, formId: string, values: Record<string, string>): Promise<void>;
  /** The `/language` settings: where the Telegram app's language is not Deckhand's, they decide. */
  languages?: LanguageStore | undefined;
}

/** A form conversation with the language it is asked in: the user's, when it opened. */
type AskedForm = FormConversation & { locale?: string };

/** The words a form conversation is asked in (English for one stored before it had a language). */
function wordsOf(conversation: FormConversation): Translator {
  return translator((conversation as AskedForm).locale);
}

/** Step-by-step forms in private chats. */
export class TelegramForms {
  private readonly timers = new Map<number, NodeJS.Timeout>();

  constructor(private readonly deps: FormFlowDeps) {}

  /**
   * The language of `user`: what their Telegram app says, else (one Deckhand does not speak) their
   * `/language` setting, else the setting of `conversationId` (their private chat unless given).
   */
  private localeOf(user: User, conversationId?: string): Promise<string> {
    const chatUser = {
      platform: 'telegram' as const,
      id: String(user.id),
      name: user.first_name,
      workspace: this.deps.botId,
      ...(user.language_code ? { locale: user.language_code } : {}),
    };
    const where = conversationId ?? telegramConversationId(this.deps.botId, user.id);
    return readerLanguage(chatUser, where, this.deps.languages);
  }

  /**
   * Starts asking a form in `user`'s private chat; when the bot may not write there yet, parks the
   * form and posts a link that opens the chat and starts it (`'parked'`).
   */
  async open(formId: string, form: FormSpec, user: User, origin: FormOrigin): Promise<'asked' | 'parked'> {
    const previous = await this.deps.store.get(user.id);
    const say = translator(await this.localeOf(user, origin.conversationId));
    const conversation: AskedForm = {
      formId,
      form,
      step: 0,
      answers: {},
      secrets: {},
      expiresAt: Date.now() + this.deps.timeoutMs,
      locale: say.language,
    };
    try {
      await this.ask(user.id, conversation);
    } catch (error) {
      if (!isBlockedByUser(error)) throw error;
      await this.deps.store.park({ formId, form, userId: user.id, expiresAt: conversation.expiresAt });
      const url = `https://t.me/${this.deps.botUsername()}?start=f_${formId}`;
      await this.deps.messenger.send(
        origin.conversationId,
        origin.chatId,
        {
          text: say.t('telegram-form-start-chat', form.title),
          status: 'info',
          links: [{ label: say.t('telegram-open-private-chat'), url }],
          locale: say.language,
        },
        this.where(origin),
      );
      return 'parked';
    }
    if (previous && previous.formId !== formId) {
      await this.showOnPrompt(user.id, previous, wordsOf(previous).t('telegram-form-replaced'), 'info');
    }
    if (!origin.isPrivate) {
      await this.deps.messenger.send(
        origin.conversationId,
        origin.chatId,
        { text: say.t('telegram-form-sent-privately', form.title), status: 'info', locale: say.language },
        this.where(origin),
      );
    }
    return 'asked';
  }

  /** `/start f_<id>` after the bot could not write first: starts the parked form. */
  async resume(user: User, formId: string): Promise<boolean> {
    const pending = await this.deps.store.unpark(formId);
    if (!pending || pending.userId !== user.id || pending.expiresAt < Date.now()) return false;
    const { form, expiresAt } = pending;
    const locale = await this.localeOf(user);
    await this.ask(user.id, {
      formId,
      form,
      step: 0,
      answers: {},
      secrets: {},
      expiresAt,
      locale,
    } as AskedForm);
    return true;
  }

  /** A private message while a form is open: the answer to the current question. */
  async answer(user: User, message: Message): Promise<boolean> {
    const conversation = await this.deps.store.get(user.id);
    if (!conversation) return false;
    const field = conversation.form.fields[conversation.step];
    if (conversation.expiresAt < Date.now() || !field) {
      await this.expire(user.id, conversation.formId);
      return true;
    }
    const value = (message.text ?? '').trim();
    if (field.secret) {
      await this.deps.api.deleteMessage(user.id, message.message_id).catch((error: unknown) => {
        this.deps.logger.warn({ err: error }, 'could not delete a secret answer from the chat');
      });
    }
    if (value === '' && !field.optional) {
      const say = wordsOf(conversation);
      await this.deps.messenger.post(telegramConversationId(this.deps.botId, user.id), {
        text: say.t('telegram-form-value-needed', field.label),
        status: 'warning',
        locale: say.language,
      });
      return true;
    }
    if (value !== '') {
      if (field.secret) conversation.secrets[field.name] = this.deps.store.seal(value);
      else conversation.answers[field.name] = value;
    }
    await this.markAnswered(user.id, conversation, field, value === '' ? undefined : value);
    await this.advance(user, conversation);
    return true;
  }

  /** A Cancel or Skip button. */
  async control(user: User, data: string, messageId: number): Promise<void> {
    const [action, formId = ''] = data.slice(FORM_CONTROL_PREFIX.length).split(':');
    const conversation = await this.deps.store.get(user.id);
    if (!conversation || conversation.formId !== formId || conversation.promptMessageId !== messageId) {
      const say = translator(await this.localeOf(user));
      await this.edit(user.id, messageId, {
        text: say.t('telegram-form-not-open'),
        status: 'info',
        locale: say.language,
      });
      return;
    }
    const field = conversation.form.fields[conversation.step];
    if (action === 's' && field?.optional) {
      await this.markAnswered(user.id, conversation, field, undefined);
      await this.advance(user, conversation);
      return;
    }
    await this.cancel(user.id, conversation);
  }

  /** `/cancel`: ends the open form, if any; false when none was open. */
  async cancelOpen(user: User): Promise<boolean> {
    const conversation = await this.deps.store.get(user.id);
    if (!conversation) return false;
    await this.cancel(user.id, conversation);
    return true;
  }

  /** Stops the timeout timers (process shutdown). */
  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private where(origin: FormOrigin) {
    return {
      ...(origin.threadId ? { threadId: origin.threadId } : {}),
      ...(origin.replyTo ? { replyTo: origin.replyTo } : {}),
    };
  }

  private async ask(userId: number, conversation: FormConversation): Promise<void> {
    const conversationId = telegramConversationId(this.deps.botId, userId);
    const handle = await this.deps.messenger.send(
      conversationId,
      userId,
      promptCard(conversation, wordsOf(conversation)),
    );
    conversation.promptMessageId = Number(handle.ref.message);
    await this.deps.store.save(userId, conversation);
    this.schedule(userId, conversation);
  }

  private async advance(user: User, conversation: FormConversation): Promise<void> {
    conversation.step += 1;
    if (conversation.step < conversation.form.fields.length) {
      await this.ask(user.id, conversation);
      return;
    }
    if (!(await this.deps.store.end(user.id, conversation.formId))) return;
    this.clearTimer(user.id);
    const values = { ...conversation.answers };
    for (const [name, sealed] of Object.entries(conversation.secrets))
      values[name] = this.deps.store.open(sealed);
    await this.deps.submit(user, conversation.formId, values);
  }

  /** Shows the answer (or "skipped") on the question it answers; secrets as "received (hidden)". */
  private async markAnswered(
    userId: number,
    conversation: FormConversation,
    field: FormField,
    value: string | undefined,
  ) {
    const say = wordsOf(conversation);
    const shown =
      value === undefined
        ? say.t('telegram-form-skipped')
        : field.secret
          ? say.t('telegram-form-received-hidden')
          : value.slice(0, 300);
    const text = say.t(
      'telegram-form-answered',
      conversation.step + 1,
      conversation.form.fields.length,
      field.label,
      shown,
    );
    await this.showOnPrompt(userId, conversation, text, 'success');
  }

  private async cancel(userId: number, conversation: FormConversation): Promise<void> {
    await this.deps.store.end(userId, conversation.formId);
    this.clearTimer(userId);
    await this.showOnPrompt(userId, conversation, wordsOf(conversation).t('telegram-form-cancelled'), 'info');
  }

  private async expire(userId: number, formId: string): Promise<void> {
    const conversation = await this.deps.store.get(userId);
    if (!conversation || conversation.formId !== formId) return;
    if (conversation.expiresAt > Date.now()) {
      this.schedule(userId, conversation);
      return;
    }
    if (!(await this.deps.store.end(userId, formId))) return;
    this.clearTimer(userId);
    const text = wordsOf(conversation).t('telegram-form-timed-out', duration(this.deps.timeoutMs));
    await this.showOnPrompt(userId, conversation, text, 'warning');
  }

  private async showOnPrompt(
    userId: number,
    conversation: FormConversation,
    text: string,
    status: Card['status'],
  ): Promise<void> {
    if (conversation.promptMessageId === undefined) return;
    await this.edit(userId, conversation.promptMessageId, {
      title: conversation.form.title,
      text,
      status,
      locale: wordsOf(conversation).language,
    });
  }

  private async edit(userId: number, messageId: number, card: Card): Promise<void> {
    const conversationId = telegramConversationId(this.deps.botId, userId);
    const handle = {
      platform: 'telegram' as const,
      conversationId,
      ref: { chat: String(userId), message: String(messageId) },
    };
    await this.deps.messenger.update(handle, card).catch((error: unknown) => {
      this.deps.logger.warn({ err: error }, 'could not update a form prompt');
    });
  }

  private schedule(userId: number, conversation: FormConversation): void {
    this.clearTimer(userId);
    const timer = setTimeout(
      () => {
        this.timers.delete(userId);
        void this.expire(userId, conversation.formId).catch((error: unknown) => {
          this.deps.logger.warn({ err: error }, 'could not time out a form');
        });
      },
      Math.max(0, conversation.expiresAt - Date.now()) + 5,
    );
    timer.unref();
    this.timers.set(userId, timer);
  }

  private clearTimer(userId: number): void {
    const timer = this.timers.get(userId);
    if (timer) clearTimeout(timer);
    this.timers.delete(userId);
  }
}
