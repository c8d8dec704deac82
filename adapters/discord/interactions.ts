/**
 * Routes one Discord interaction to the core, whichever way it arrived (gateway or HTTP endpoint):
 * slash commands → `handleStructured`, button clicks → `handleAction` (rights checked for the person
 * who clicked), modal submissions → `handleForm`, autocomplete → platform values. Re-deliveries of
 * the same interaction are dropped, and a double click on a button within a few seconds runs once.
 * The deferral timer is armed before Redis is touched, so Discord always gets its first answer in
 * time; when Redis cannot record the interaction it is deferred and answered "nothing was done".
 */
import {
  type APIApplicationCommandAutocompleteInteraction,
  type APIChatInputApplicationCommandInteraction,
  type APIInteraction,
  type APIMessageComponentInteraction,
  type APIModalSubmitInteraction,
  ApplicationCommandType,
  ChannelType,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
} from 'discord.js';
import type { Logger } from 'pino';
import type { ClickGuard } from '../../src/core/clicks';
import type { Invocation } from '../../src/core/command';
import type { CommandHandoff } from '../../src/core/command-handoff';
import type { CommandInput } from '../../src/core/command-job';
import type { CommandRunner } from '../../src/core/command-runner';
import { conversationId } from '../../src/core/conversation';
import { newReferenceId, StoreUnavailableError } from '../../src/core/errors';
import type { DeliveryDeduper } from '../../src/core/host';
import { type LanguageStore, readerLanguage } from '../../src/core/languages';
import type { Suggestions } from '../../src/core/suggestions';
import { type Translator, translator } from '../../src/i18n/translate';
import { currentInvocationId, newInvocationId, runWithInvocation } from '../../src/log';
import { attachmentFile } from './files';
import { FORM_BUTTON_PREFIX, MODAL_PREFIX, modalFor, modalValues } from './forms';
import type { CommandRoute } from './manifest';
import { parseCommand } from './options';
import { NO_MENTIONS } from './render';
import { type DeferKind, type InitialAnswer, InteractionResponder } from './responder';
import { choicesOf } from './suggestions';
import { InteractionSurface, type SurfaceDeps } from './surface';

/** What the handler needs. */
export interface InteractionHandlerDeps extends SurfaceDeps {
  runner: CommandRunner<unknown>;
  /** Runs acknowledged commands here (`all`) or queues them for a worker (`web`). */
  handoff: CommandHandoff;
  routes: Map<string, CommandRoute>;
  suggestions: Suggestions;
  /** Claims interaction ids (gateway resumes and replays re-deliver them). */
  deduper: DeliveryDeduper;
  /** The core's double-click guard: a second press within its window runs nothing. */
  clicks: ClickGuard;
  /** How long to wait for a modal before deferring (well inside Discord's 3 s). */
  ackAfterMs: number;
  /** The `/language` settings: where the Discord client's language is not Deckhand's, they decide. */
  languages?: LanguageStore | undefined;
  logger: Logger;
}

/** The plain-data reply place of a queued Discord command: the interaction, as deferred here. */
export interface QueuedDiscordPlace {
  token: string;
  deferred: DeferKind;
  sourceEphemeral: boolean;
}

/** What became of a delivery. */
export type InteractionOutcome = 'handled' | 'duplicate';

/** One interaction's first answer and reply surface, set up before anything else happens. */
interface Session {
  responder: InteractionResponder;
  surface: InteractionSurface;
  invocation: Invocation;
  /** False for a dropped delivery: its first answer (if any) is left as it is. */
  tidy: boolean;
  /** The delivery key claimed for it. */
  key: string;
  token: string;
  deferKind: DeferKind;
  sourceEphemeral: boolean;
}

/** The answer to an interaction that failed in the adapter itself, with its reference (the invocation id). */
function genericFailure(reference: string, say: Translator): string {
  return say.t('discord-internal-error', reference);
}

/**
 * The words of the person who sent an interaction: the language their Discord client says, else (one
 * Deckhand does not speak) their `/language` setting, else the conversation's, else English.
 */
async function wordsOf(
  interaction: APIInteraction,
  languages: LanguageStore | undefined,
): Promise<Translator> {
  const invocation = invocationOf(interaction);
  return translator(await readerLanguage(invocation.user, invocation.conversationId, languages));
}

/** Handles interactions for one application. */
export class InteractionHandler {
  constructor(private readonly deps: InteractionHandlerDeps) {}

  /** The words of the person who sent `interaction` (see {@link wordsOf}). */
  private words(interaction: APIInteraction): Promise<Translator> {
    return wordsOf(interaction, this.deps.languages);
  }

  /**
   * Handles one interaction; `answer` delivers the first response. Never throws. It is one
   * invocation from its arrival: the command runner runs the command under the same id, and a failure
   * here shows that id as its reference.
   */
  handle(interaction: APIInteraction, answer: InitialAnswer): Promise<InteractionOutcome> {
    return runWithInvocation(currentInvocationId() ?? newInvocationId(), () =>
      this.handleInvocation(interaction, answer),
    );
  }

  private async handleInvocation(
    interaction: APIInteraction,
    answer: InitialAnswer,
  ): Promise<InteractionOutcome> {
    let answered = false;
    const once: InitialAnswer = (response) => {
      answered = true;
      return answer(response);
    };
    try {
      return await this.route(interaction, once);
    } catch (error) {
      const reference = newReferenceId();
      this.deps.logger.error(
        { err: error, interaction: interaction.id, type: interaction.type, reference },
        'discord interaction failed',
      );
      if (!answered && interaction.type !== InteractionType.Ping) {
        await once({
          type: InteractionResponseType.ChannelMessageWithSource,
          data: {
            content: genericFailure(
              reference,
              await this.words(interaction).catch(() => translator(undefined)),
            ),
            flags: MessageFlags.Ephemeral,
            allowed_mentions: NO_MENTIONS,
          },
        }).catch(() => undefined);
      }
      return 'handled';
    }
  }

  private async route(interaction: APIInteraction, answer: InitialAnswer): Promise<InteractionOutcome> {
    if (interaction.type === InteractionType.Ping) {
      await answer({ type: InteractionResponseType.Pong });
      return 'handled';
    }
    if (interaction.type === InteractionType.ApplicationCommandAutocomplete) {
      await this.autocomplete(interaction, answer);
      return 'handled';
    }
    const session = this.open(interaction, answer);
    try {
      if (!(await this.deps.deduper.claim(session.key))) {
        session.tidy = false;
        session.responder.dispose();
        this.deps.logger.info({ interaction: interaction.id }, 'discord: dropped a re-delivered interaction');
        return 'duplicate';
      }
      switch (interaction.type) {
        case InteractionType.ApplicationCommand:
          if (interaction.data.type !== ApplicationCommandType.ChatInput) {
            await this.notice(session, (await this.words(interaction)).t('discord-slash-commands-only'));
            return 'handled';
          }
          await this.command(interaction as APIChatInputApplicationCommandInteraction, session);
          return 'handled';
        case InteractionType.MessageComponent:
          await this.click(interaction, session);
          return 'handled';
        case InteractionType.ModalSubmit:
          await this.submit(interaction, session);
          return 'handled';
      }
      return 'handled';
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      // Deferred first (Discord's deadline is kept whatever Redis does), then told; nothing ran.
      this.deps.logger.warn(
        { interaction: interaction.id },
        'discord: store unavailable, interaction refused',
      );
      await session.responder.ensureAck();
      await session.surface.reply({ text: error.message, status: 'danger', visibility: 'private' });
      return 'handled';
    } finally {
      if (session.tidy) await session.surface.finish();
      else session.responder.dispose();
    }
  }

  /**
   * Arms the deferral timer and builds the surface before Redis is touched: the first answer then
   * reaches Discord inside its 3 seconds however long a store call takes.
   */
  private open(interaction: APIInteraction, answer: InitialAnswer): Session {
    const click = interaction.type === InteractionType.MessageComponent;
    const defer: DeferKind = click
      ? InteractionResponseType.DeferredMessageUpdate
      : InteractionResponseType.DeferredChannelMessageWithSource;
    const modalAllowed = interaction.type !== InteractionType.ModalSubmit;
    const responder = new InteractionResponder(answer, defer, this.deps.logger, modalAllowed);
    responder.start(this.deps.ackAfterMs);
    const invocation = invocationOf(interaction);
    const sourceEphemeral = click && ((interaction.message.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
    const surface = new InteractionSurface(this.deps, {
      responder,
      invocation,
      token: interaction.token,
      sourceEphemeral,
    });
    return {
      responder,
      surface,
      invocation,
      tidy: true,
      key: `discord:interaction:${interaction.id}`,
      token: interaction.token,
      deferKind: defer,
      sourceEphemeral,
    };
  }

  /**
   * Hands a command on. Queued for a worker: deferred here at once (the worker cannot give the first
   * answer), and the worker tidies up the interaction after the run; run here: as before.
   */
  private async handOff(session: Session, input: CommandInput): Promise<void> {
    if (this.deps.handoff.queued) {
      await session.responder.ensureAck();
      session.tidy = false;
    }
    const place: QueuedDiscordPlace = {
      token: session.token,
      deferred: session.deferKind,
      sourceEphemeral: session.sourceEphemeral,
    };
    await this.deps.handoff.submit(
      { key: session.key, platform: 'discord', input, invocation: session.invocation, place: { ...place } },
      () => session.surface,
    );
  }

  /** A short private notice: the first answer when still possible, else after the deferral. */
  private async notice(session: Session, text: string): Promise<void> {
    if (session.responder.type === undefined) {
      await session.responder.respond(notice(text));
      return;
    }
    await session.surface.reply({ text, status: 'info', visibility: 'private' });
  }

  private async command(interaction: APIChatInputApplicationCommandInteraction, session: Session) {
    const parsed = parseCommand(interaction.data, this.deps.routes);
    if (!parsed) {
      await this.notice(
        session,
        (await this.words(interaction)).t('discord-command-gone', interaction.data.name),
      );
      return;
    }
    const invocation = session.invocation;
    if (parsed.attachments.length) invocation.files = parsed.attachments.map((a) => attachmentFile(a));
    this.deps.logger.debug({ interaction: interaction.id, command: parsed.name }, 'discord command');
    await this.handOff(session, { kind: 'structured', command: parsed.name, args: parsed.args });
  }

  private async click(interaction: APIMessageComponentInteraction, session: Session) {
    const customId = interaction.data.custom_id;
    if (customId.startsWith(FORM_BUTTON_PREFIX)) {
      const formId = customId.slice(FORM_BUTTON_PREFIX.length);
      const [form, say] = await Promise.all([this.deps.forms.recall(formId), this.words(interaction)]);
      if (form && session.responder.canOpenModal()) {
        await session.responder.respond({
          type: InteractionResponseType.Modal,
          data: modalFor(formId, form, say),
        });
        return;
      }
      await this.notice(
        session,
        form ? say.t('discord-form-window-closed') : `${say.t('form-expired')} ${say.t('form-expired-hint')}`,
      );
      return;
    }
    const invocation = session.invocation;
    const click = {
      platform: 'discord' as const,
      message: interaction.message.id,
      action: customId,
      user: invocation.user.id,
    };
    if (!(await this.deps.clicks.first(click))) {
      this.deps.logger.info({ interaction: interaction.id }, 'discord: ignored a double click');
      session.tidy = false;
      await session.responder.ensureAck();
      return;
    }
    await this.handOff(session, { kind: 'action', actionId: customId });
  }

  private async submit(interaction: APIModalSubmitInteraction, session: Session) {
    const customId = interaction.data.custom_id;
    if (!customId.startsWith(MODAL_PREFIX)) {
      await this.notice(session, (await this.words(interaction)).t('discord-form-not-ours'));
      return;
    }
    const values = modalValues(interaction.data.components);
    await this.handOff(session, { kind: 'form', formId: customId.slice(MODAL_PREFIX.length), values });
  }

  private async autocomplete(
    interaction: APIApplicationCommandAutocompleteInteraction,
    answer: InitialAnswer,
  ) {
    const parsed = parseCommand(interaction.data, this.deps.routes);
    const focused = parsed?.focused;
    const values =
      parsed && focused
        ? await this.deps.suggestions.suggest({
            command: parsed.name,
            key: focused.key,
            typed: focused.value,
            ...(typeof parsed.args.tool === 'string' ? { tool: parsed.args.tool } : {}),
            conversationId: invocationOf(interaction).conversationId,
          })
        : [];
    const choices = choicesOf(values);
    await answer({ type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices } });
  }
}

function notice(text: string) {
  return {
    type: InteractionResponseType.ChannelMessageWithSource as const,
    data: { content: text, flags: MessageFlags.Ephemeral, allowed_mentions: NO_MENTIONS },
  };
}

/** Who acted and where, as the core sees it. */
export function invocationOf(interaction: APIInteraction): Invocation {
  const user = interaction.member?.user ?? interaction.user;
  const workspace = interaction.guild_id ?? '@me';
  const channel = interaction.channel?.id ?? interaction.channel_id ?? 'unknown';
  const conversation = { platform: 'discord' as const, workspace, channel };
  const name = interaction.member?.nick ?? user?.global_name ?? user?.username ?? 'someone';
  return {
    user: {
      platform: 'discord',
      id: user?.id ?? 'unknown',
      name,
      workspace,
      // The reader's client language (every interaction but a ping carries it).
      ...('locale' in interaction && interaction.locale ? { locale: interaction.locale } : {}),
    },
    conversation,
    conversationId: conversationId(conversation),
    isPrivate: !interaction.guild_id && interaction.channel?.type === ChannelType.DM,
  };
}
