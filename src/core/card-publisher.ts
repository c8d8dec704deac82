/**
 * Turning draft cards into the cards a platform shows: buttons stored under short ids, known secrets
 * masked, the conversation's time zone and language stamped, texts written in the platform's command form; and
 * posting or editing them through the platform's messenger, by conversation id.
 */
import type { Logger } from 'pino';
import type { SecretScrubber } from '../secrets';
import type { ActionStore, StoredAction } from './actions';
import type { MessageHandle } from './command';
import { type CommandForm, type CommandForms, cardInForm, PLAIN_FORM, plainForms } from './command-form';
import { parseConversationId } from './conversation';
import { type BudgetOf, EditPacer } from './edit-pacer';
import type { LanguageStore } from './languages';
import type { Messengers } from './messenger';
import type { ActionRequest, Card, CardButton, DraftCard } from './reply';
import { scrubCard } from './scrub-card';
import type { TimeZoneStore } from './times';

/** Posting and editing cards in conversations, as the workers and the web flows use it. */
export interface CardPublishing {
  /** Posts a draft card to a conversation through its platform's messenger. */
  post(conversationId: string, draft: DraftCard): Promise<MessageHandle>;
  /**
   * Posts a draft card in the thread of a posted message; a message of its own in the parent's
   * conversation where the platform's messenger has no threads.
   */
  postInThread(parent: MessageHandle, draft: DraftCard): Promise<MessageHandle>;
  /** Edits a posted card through its platform's messenger. */
  update(handle: MessageHandle, draft: DraftCard): Promise<void>;
}

/** What the card publisher needs from the application. */
export interface CardPublisherDeps {
  /** Where buttons' meanings are stored under short ids. */
  actions: ActionStore;
  messengers: Messengers;
  logger: Logger;
  /** Masks registered secrets in every public card (see `src/core/scrub-card.ts`). */
  secrets?: SecretScrubber;
  /** The conversations' time zones (`/timezone`), stamped on every card rendered for them. */
  timeZones?: TimeZoneStore;
  /** The conversations' languages (`/language --here`), stamped on every card not written for one reader. */
  languages?: LanguageStore;
  /** Seconds a button stays valid by default. */
  actionTtlSeconds?: number;
  /** How commands are written on each platform (help, usage, hints); the plain `/deploy` by default. */
  commandForms?: CommandForms;
  /**
   * Each conversation's send and edit budget (the platform descriptor's): edits beyond it coalesce,
   * the latest state winning. Absent: edits are made as they come.
   */
  budgets?: BudgetOf;
}

/** Renders draft cards for a conversation and posts or edits them there. */
export class CardPublisher implements CardPublishing {
  private readonly ttl: number;
  private readonly pacer: EditPacer | undefined;

  constructor(private readonly deps: CardPublisherDeps) {
    this.ttl = deps.actionTtlSeconds ?? 24 * 3600;
    this.pacer = deps.budgets ? new EditPacer(deps.budgets) : undefined;
  }

  /** How commands are written in a conversation (`/deploy`, or `/deckhand deploy` after a platform's one namespaced command). */
  formOf(conversationId: string): CommandForm {
    let platform: ReturnType<typeof parseConversationId>['platform'];
    try {
      platform = parseConversationId(conversationId).platform;
    } catch {
      return PLAIN_FORM;
    }
    return (this.deps.commandForms ?? plainForms)(platform);
  }

  /**
   * Stores a draft card's actions and returns the card with short-id buttons; known secrets are masked
   * unless the card is private (shown only to the person who asked).
   */
  async render(draft: DraftCard, conversationId: string): Promise<Card> {
    const { actions, tool, deferred: _deferred, audit: _audit, ...plain } = draft;
    const rest = cardInForm(plain, this.formOf(conversationId));
    // The masking, the stored actions and the time zone are independent reads and writes: sent
    // together, they cost one Redis round trip before the card can be posted, not three.
    const timeZones = rest.timeZone === undefined ? this.deps.timeZones : undefined;
    const languages = rest.locale === undefined ? this.deps.languages : undefined;
    const [card, buttons, zone, language] = await Promise.all([
      this.deps.secrets ? scrubCard({ ...rest }, this.deps.secrets, tool) : ({ ...rest } as Card),
      actions && actions.length > 0
        ? Promise.all(actions.map((a) => this.storeAction(a, conversationId)))
        : undefined,
      timeZones?.get(conversationId).catch(() => undefined),
      languages?.ofConversation(conversationId).catch(() => undefined),
    ]);
    if (buttons) card.buttons = buttons;
    if (zone) card.timeZone = zone;
    if (language) card.locale = language;
    return card;
  }

  /** Posts a draft card to a conversation through the messenger of the id's platform. */
  async post(conversationId: string, draft: DraftCard): Promise<MessageHandle> {
    const platform = parseConversationId(conversationId).platform;
    const card = await this.render(draft, conversationId);
    const handle = await this.deps.messengers.for(platform).post(conversationId, card);
    // Not the handle's ref: it may hold an interaction token or a response_url.
    this.deps.logger.debug({ platform, conversationId }, 'card posted');
    return handle;
  }

  /** See {@link CardPublishing.postInThread}. */
  async postInThread(parent: MessageHandle, draft: DraftCard): Promise<MessageHandle> {
    const card = await this.render(draft, parent.conversationId);
    const messenger = this.deps.messengers.for(parent.platform);
    return messenger.postInThread
      ? messenger.postInThread(parent, card)
      : messenger.post(parent.conversationId, card);
  }

  /**
   * Edits a posted card through its platform's messenger, within the conversation's edit budget: a
   * newer draft for the same message, given while this one waits, replaces it (and this call resolves
   * when that one was shown). The card is rendered when it is sent, so a replaced draft stores nothing.
   */
  async update(handle: MessageHandle, draft: DraftCard): Promise<void> {
    if (!this.pacer) return this.edit(handle, draft);
    const key = `${handle.platform} ${handle.conversationId} ${JSON.stringify(handle.ref)}`;
    return this.pacer.edit(handle.conversationId, key, () => this.edit(handle, draft));
  }

  private async edit(handle: MessageHandle, draft: DraftCard): Promise<void> {
    const card = await this.render(draft, handle.conversationId);
    await this.deps.messengers.for(handle.platform).update(handle, card);
    this.deps.logger.debug(
      { platform: handle.platform, conversationId: handle.conversationId },
      'card edited',
    );
  }

  /**
   * Stores a button's meaning for the conversation (expiring after its own or the default TTL) and
   * returns the button as shown; `target` is what a confirmation named (checked again at Confirm).
   */
  async storeAction(
    action: ActionRequest,
    conversationId: string,
    target?: StoredAction['target'],
  ): Promise<CardButton> {
    const ttl = action.ttlSeconds ?? this.ttl;
    const actionId = await this.deps.actions.save({
      command: action.command,
      args: action.args,
      conversationId,
      expiresAt: Date.now() + ttl * 1000,
      ...(action.confirmed ? { confirmed: true } : {}),
      target,
    });
    return { label: action.label, actionId, ...(action.style ? { style: action.style } : {}) };
  }
}
