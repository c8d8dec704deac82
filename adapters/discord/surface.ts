/**
 * The reply surface of one interaction. Public cards become the bot's own channel messages (bot
 * token: editable for hours, from any process); private cards are ephemeral interaction replies
 * (the deferred `@original`, then ephemeral follow-ups). The command runner's confirmation prompts are
 * private too, so only the person who asked sees the Confirm button.
 */
import { InteractionResponseType, MessageFlags } from 'discord.js';
import type { Logger } from 'pino';
import type { CardSurface } from '../../src/core/card-surface';
import type { Invocation, MessageHandle } from '../../src/core/command';
import { ConversationGoneError } from '../../src/core/errors';
import type { FormSpec } from '../../src/core/forms';
import { pickLanguage } from '../../src/core/languages';
import type { Card } from '../../src/core/reply';
import { t, translator } from '../../src/i18n/translate';
import type { DiscordApi } from './api';
import { escapeText } from './escape';
import { type FormStash, formButtonRow, modalFor } from './forms';
import type { DiscordMessenger } from './messenger';
import { type RenderedMessage, renderCard, renderNotice } from './render';
import type { InteractionResponder } from './responder';

/** What every interaction surface shares. */
export interface SurfaceDeps {
  api: DiscordApi;
  messenger: DiscordMessenger;
  forms: FormStash;
  logger: Logger;
}

/** One interaction's context. */
export interface SurfaceContext {
  responder: InteractionResponder;
  invocation: Invocation;
  token: string;
  /** The clicked message is ephemeral (its `@original` can be replaced by the answer). */
  sourceEphemeral: boolean;
}

/**
 * True for the command runner's confirmation prompt (see `askConfirmation` in src/core/command-execution.ts):
 * shown ephemerally so only the person who asked can confirm.
 */
export function isConfirmation(card: Card): boolean {
  return card.title === 'Please confirm' && (card.buttons ?? []).some((b) => b.label === 'Confirm');
}

/** A {@link CardSurface} over one Discord interaction. */
export class InteractionSurface implements CardSurface {
  private originalUsed = false;

  constructor(
    private readonly deps: SurfaceDeps,
    private readonly context: SurfaceContext,
  ) {}

  async reply(card: Card): Promise<MessageHandle | undefined> {
    const responder = this.context.responder;
    await responder.ensureAck();
    if (card.visibility === 'private' || isConfirmation(card)) {
      // After a modal the interaction has no message to reply in; the modal itself is the answer.
      if (responder.type === InteractionResponseType.Modal) return undefined;
      return this.replyPrivately(renderCard(card));
    }
    const invocation = this.context.invocation;
    try {
      return await this.deps.messenger.post(invocation.conversationId, card, {
        author: invocation.user.name,
      });
    } catch (error) {
      if (!(error instanceof ConversationGoneError)) throw error;
      const footer = [card.footer, t(card.locale, 'discord-cannot-post')].filter(Boolean).join(' · ');
      return this.replyPrivately(renderCard({ ...card, footer }));
    }
  }

  async update(handle: MessageHandle, card: Card): Promise<void> {
    await this.deps.messenger.update(handle, card);
  }

  async openForm(formId: string, form: FormSpec): Promise<void> {
    await this.deps.forms.remember(formId, form);
    // The reader's language: their Discord client's, else the one the core read for them.
    const say = translator(
      pickLanguage({ platform: this.context.invocation.user.locale, user: form.locale }),
    );
    const responder = this.context.responder;
    if (responder.canOpenModal()) {
      await responder.respond({ type: InteractionResponseType.Modal, data: modalFor(formId, form, say) });
      return;
    }
    await responder.ensureAck();
    await this.replyPrivately(
      renderNotice(say.t('discord-form-click-button', escapeText(form.title)), [
        formButtonRow(formId, say.t('discord-form-open')),
      ]),
    );
  }

  /** Tidies up after the command ran: no "thinking…" left behind, used confirmations lose their buttons. */
  async finish(): Promise<void> {
    const responder = this.context.responder;
    responder.dispose();
    try {
      await responder.ensureAck();
      if (this.originalUsed) return;
      if (responder.type === InteractionResponseType.DeferredChannelMessageWithSource) {
        await this.deps.api.deleteReply(this.context.token);
      } else if (
        responder.type === InteractionResponseType.DeferredMessageUpdate &&
        this.context.sourceEphemeral
      ) {
        await this.deps.api.clearButtons(this.context.token);
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'discord: could not tidy up the interaction reply');
    }
  }

  private async replyPrivately(message: RenderedMessage): Promise<MessageHandle> {
    const { responder, token, invocation, sourceEphemeral } = this.context;
    const ref = (id: string) => ({
      platform: 'discord' as const,
      conversationId: invocation.conversationId,
      ref: { kind: 'interaction', token, message: id },
    });
    const canUseOriginal =
      !this.originalUsed &&
      (responder.type === InteractionResponseType.DeferredChannelMessageWithSource ||
        (responder.type === InteractionResponseType.DeferredMessageUpdate && sourceEphemeral));
    if (canUseOriginal) {
      this.originalUsed = true;
      await this.deps.api.editReply(token, '@original', message);
      return ref('@original');
    }
    message.body.flags = MessageFlags.Ephemeral;
    const posted = await this.deps.api.followUp(token, message);
    return ref(posted.id);
  }
}
