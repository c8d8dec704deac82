/**
 * The approval gate of the command runner: a protected command posts an approval card instead of
 * running; an Approve press is taken only from a maintainer of the tool who is not the requester
 * (neither the same chat user nor the same linked identity, on any platform), recorded atomically,
 * and the press that completes the approvals runs the command, once, with the arguments the card
 * showed, after its target is checked again (a changed target is asked again on a new card).
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { type Translator, translator } from '../i18n/translate';
import { approvalCard } from './approval-card';
import { postCopies, showEverywhere } from './approval-copies';
import {
  APPROVAL_TTL_MS,
  type ApprovalDecision,
  type ApprovalRecord,
  type ApprovalStore,
  isProtected,
  type ToolProtection,
} from './approvals';
import type { CardPublisher } from './card-publisher';
import type { CardSurface } from './card-surface';
import { userKeyOf } from './change-record';
import type { ChatUser, Invocation } from './command';
import { DeckhandError, UsageError } from './errors';
import { type LanguageStore, replyLanguage } from './languages';
import type { Policy } from './policy';

/** An Approve or Deny that is not taken: shown to the presser only, never audited as the command. */
export class ApprovalRefused extends UsageError {
  override readonly code: string = 'approval_refused';

  /** A refusal in the catalog's words (English for logs, the reader's language in the chat). */
  static said(words: NonNullable<DeckhandError['words']>): ApprovalRefused {
    const english = words(translator('en'));
    return new ApprovalRefused(english.message, { hint: english.hint, words });
  }
}

/** The words of an expired request. */
const EXPIRED: NonNullable<DeckhandError['words']> = (say) => ({
  message: say.t('approval-expired'),
  hint: say.t('approval-expired-hint'),
});

/** A protected command as asked: what the card shows and what runs. */
export interface AskedRun {
  command: string;
  tool: string;
  /** The arguments it runs with (the target bound). */
  args: Record<string, unknown>;
  question: string;
  target?: { label: string; version?: string };
  preview?: { text: string; language?: string };
}

/** What the gate needs. */
export interface ApprovalGateDeps {
  store: ApprovalStore;
  publisher: Pick<CardPublisher, 'render' | 'update' | 'post'>;
  /** The tool's other subscribed conversations, where the card is copied (none: not copied). */
  elsewhere?(tool: string, conversationId: string): Promise<string[]>;
  /** The conversations' languages (`/language --here`), for the card's copies. */
  languages?: Pick<LanguageStore, 'ofConversation'>;
  /** The access rules: an approver needs `write` on the tool. */
  policy: Policy;
  /** The linked cross-platform identity of a chat user (`source:<login>`), if any. */
  identityOf?(user: ChatUser): Promise<string | undefined>;
  /** How long a request waits (default 30 minutes). */
  ttlMs?: number;
  logger: Logger;
}

/** What the command runner does for an approved request. */
export interface ApprovedRun<T> {
  /** True when the target changed since the card was posted. */
  changed(): Promise<boolean>;
  /** Posts a fresh approval card for the target as it is now. */
  askAgain(requester: Invocation): Promise<void>;
  /** Runs the command as the requester (`record.override`: despite a lock or freeze). */
  run(requester: Invocation, approvedBy: string, record: ApprovalRecord): Promise<T>;
}

/** A 24-character base62-ish id (hex), unguessable. */
function newId(): string {
  return randomBytes(12).toString('hex');
}

/** Asks for approvals and takes Approve and Deny presses. */
export class ApprovalGate {
  constructor(private readonly deps: ApprovalGateDeps) {}

  /** The tool's policy when it protects `command`. */
  async protection(tool: string, command: string): Promise<ToolProtection | undefined> {
    const protection = await this.deps.store.protection(tool);
    return isProtected(protection, command) ? protection : undefined;
  }

  /** Posts the approval card for a protected command and stores the request. */
  async ask(
    asked: AskedRun,
    invocation: Invocation,
    surface: CardSurface,
    approvers?: number,
    override?: boolean,
  ): Promise<void> {
    const needed = approvers ?? (await this.deps.store.protection(asked.tool))?.approvers ?? 1;
    const identity = await this.deps.identityOf?.(invocation.user).catch(() => undefined);
    // The card is the command's reply here: in the reply's language, kept for its edits.
    const say = translator(replyLanguage(invocation));
    const record: ApprovalRecord = {
      id: newId(),
      tool: asked.tool,
      command: asked.command,
      requester: invocation.user,
      ...(identity ? { identity } : {}),
      conversationId: invocation.conversationId,
      args: JSON.stringify(asked.args),
      question: asked.question,
      ...(asked.target ? { target: asked.target } : {}),
      ...(asked.preview ? { preview: asked.preview } : {}),
      approvers: needed,
      ...(override ? { override: true } : {}),
      expiresAt: Date.now() + (this.deps.ttlMs ?? APPROVAL_TTL_MS),
      state: 'open',
      decisions: [],
      languages: { [invocation.conversationId]: say.language },
    };
    await this.deps.store.open(record);
    const card = await this.deps.publisher.render(
      approvalCard(record, undefined, say),
      invocation.conversationId,
    );
    const handle = await surface.reply(card);
    const { copies, languages } = await postCopies(this.deps, record);
    if (handle || copies.length) {
      await this.deps.store.open({
        ...record,
        ...(handle ? { handle } : {}),
        ...(copies.length ? { copies } : {}),
        languages: { ...languages, ...record.languages },
      });
    }
  }

  /** The open request an Approve or Deny button names. */
  async request(id: string): Promise<ApprovalRecord> {
    const record = await this.deps.store.load(id);
    if (!record || record.expiresAt < Date.now()) {
      throw UsageError.inWords(EXPIRED);
    }
    return record;
  }

  /**
   * An Approve press: refused for the requester and for anyone who is not a maintainer of the
   * tool; recorded once; the press that completes the approvals runs the command through `then`.
   */
  async approve<T>(
    id: string,
    approver: Invocation,
    surface: CardSurface,
    then: ApprovedRun<T>,
  ): Promise<T | 'approval'> {
    const asked = await this.request(id);
    await this.checkApprover(asked, approver);
    const record = await this.decided(asked, decisionOf(approver, 'approved'));
    if (record.state === 'open') {
      await this.show(record);
      const say = translator(replyLanguage(approver, 'private'));
      await surface.reply({
        text: say.t('approval-recorded', record.command, record.tool),
        status: 'info',
        visibility: 'private',
        locale: say.language,
      });
      return 'approval';
    }
    const requester: Invocation = { ...approver, user: record.requester, isPrivate: false };
    if (await then.changed()) {
      await this.show(record, (say) => say.t('approval-target-changed'));
      await then.askAgain(requester);
      return 'approval';
    }
    await this.show(record);
    try {
      return await then.run(requester, approver.user.name, record);
    } catch (error) {
      await this.show(record, (say) => {
        const why =
          error instanceof DeckhandError
            ? (error.words?.(say).message ?? error.message)
            : say.t('approval-run-failed-why');
        return say.t('approval-run-failed', record.command, why);
      });
      throw error;
    }
  }

  /** A Deny press: a maintainer of the tool, or the requester withdrawing it, ends the request. */
  async deny(id: string, invocation: Invocation, surface: CardSurface): Promise<void> {
    const asked = await this.request(id);
    if (userKeyOf(invocation.user) !== userKeyOf(asked.requester))
      await this.checkApprover(asked, invocation);
    const record = await this.decided(asked, decisionOf(invocation, 'denied'));
    await this.show(record);
    const say = translator(replyLanguage(invocation, 'private'));
    await surface.reply({
      text: say.t('approval-denied'),
      status: 'info',
      visibility: 'private',
      locale: say.language,
    });
  }

  /** Refuses the requester (by chat user or linked identity) and non-maintainers. */
  private async checkApprover(record: ApprovalRecord, approver: Invocation): Promise<void> {
    const { command, tool } = record;
    if (userKeyOf(approver.user) === userKeyOf(record.requester)) {
      throw ApprovalRefused.said((say) => ({
        message: say.t('approval-own-request', command, tool),
        hint: say.t('approval-other-maintainer', tool),
      }));
    }
    try {
      await this.deps.policy.check(approver.user, 'write', record.tool);
    } catch (error) {
      if (!(error instanceof DeckhandError)) throw error;
      const words = error.words;
      throw ApprovalRefused.said((say) => ({
        message: say.t('approval-maintainers-only', tool, command),
        hint: (words ? words(say).hint : error.hint) ?? say.t('approval-ask-maintainer', tool),
      }));
    }
    const identity = record.identity
      ? await this.deps.identityOf?.(approver.user).catch(() => undefined)
      : undefined;
    if (identity && identity === record.identity) {
      throw ApprovalRefused.said((say) => ({
        message: say.t('approval-own-linked-request', identity, command, tool),
        hint: say.t('approval-other-maintainer', tool),
      }));
    }
  }

  /** Records the decision; a closed, repeated or expired one is refused. */
  private async decided(asked: ApprovalRecord, decision: ApprovalDecision): Promise<ApprovalRecord> {
    const result = await this.deps.store.decide(asked.id, decision);
    switch (result.kind) {
      case 'recorded':
        return result.record;
      case 'gone':
        throw ApprovalRefused.said(EXPIRED);
      case 'duplicate':
        throw ApprovalRefused.said((say) => ({ message: say.t('approval-already-decided') }));
      case 'closed': {
        const last = result.record.decisions.at(-1);
        const denied = result.record.state === 'denied';
        throw ApprovalRefused.said((say) => ({
          message: last
            ? denied
              ? say.t('approval-already-denied-by', last.name)
              : say.t('approval-already-approved-by', last.name)
            : denied
              ? say.t('approval-already-denied')
              : say.t('approval-already-approved'),
        }));
      }
    }
  }

  /** Edits the approval card and its copies to show the request as it is now. */
  private async show(record: ApprovalRecord, note?: (say: Translator) => string): Promise<void> {
    await showEverywhere(this.deps, record, note);
  }
}

function decisionOf(invocation: Invocation, kind: ApprovalDecision['kind']): ApprovalDecision {
  return { kind, key: userKeyOf(invocation.user), name: invocation.user.name, at: Date.now() };
}
