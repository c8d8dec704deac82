/**
 * The first answer to one interaction. Discord wants it within 3 seconds and accepts exactly one:
 * a modal (only possible as the first answer), an immediate message, or a deferral ("thinking…"
 * for commands, a silent acknowledgement for clicks). Deckhand waits up to `ackAfterMs` for the
 * command to ask for a modal; otherwise it defers, always inside the deadline.
 */
import { type APIInteractionResponse, InteractionResponseType, MessageFlags } from 'discord.js';
import type { Logger } from 'pino';
import { recordAck } from '../api-metrics';

/** Delivers the first answer: a REST callback (gateway mode) or the HTTP response (endpoint mode). */
export type InitialAnswer = (response: APIInteractionResponse) => Promise<void>;

/** How an interaction is deferred: an ephemeral "thinking" reply, or a silent update acknowledgement. */
export type DeferKind =
  | InteractionResponseType.DeferredChannelMessageWithSource
  | InteractionResponseType.DeferredMessageUpdate;

/** Holds the single first answer of one interaction. */
export class InteractionResponder {
  private answered: Promise<void> | undefined;
  private answeredType: InteractionResponseType | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the interaction reached us: its first answer is the acknowledgement, timed from here. */
  private readonly received = performance.now();

  constructor(
    private readonly answer: InitialAnswer,
    private readonly deferKind: DeferKind,
    private readonly logger: Logger,
    /** False for a modal submission: Discord does not allow a modal in answer to a modal. */
    private readonly modalAllowed = true,
  ) {}

  /** Defers by itself after `ackAfterMs` unless something was answered before. */
  start(ackAfterMs: number): void {
    this.timer = setTimeout(() => {
      this.ensureAck().catch((error: unknown) =>
        this.logger.warn({ err: error }, 'discord: could not acknowledge the interaction'),
      );
    }, ackAfterMs);
  }

  /** The type of the first answer, once given. */
  get type(): InteractionResponseType | undefined {
    return this.answeredType;
  }

  /** True while a modal can still be the first answer. */
  canOpenModal(): boolean {
    return this.modalAllowed && this.answered === undefined;
  }

  /** Gives the first answer; a second call is a programming error. */
  respond(response: APIInteractionResponse): Promise<void> {
    if (this.answered) throw new Error('this interaction was already answered');
    this.dispose();
    this.answeredType = response.type;
    this.answered = this.answer(response).then(() =>
      recordAck('discord', (performance.now() - this.received) / 1000),
    );
    return this.answered;
  }

  /** Defers unless already answered; resolves once the first answer reached Discord. */
  ensureAck(): Promise<void> {
    if (this.answered) return this.answered;
    return this.respond(
      this.deferKind === InteractionResponseType.DeferredChannelMessageWithSource
        ? { type: this.deferKind, data: { flags: MessageFlags.Ephemeral } }
        : { type: this.deferKind },
    );
  }

  /** Stops the deferral timer. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
