/**
 * The approval card's copies: besides the conversation it was asked in, the card is posted to every
 * other conversation subscribed to the tool, so a maintainer there can decide (Approve and Deny work
 * from any of them), and every copy is edited with each decision.
 */
import { spokenLanguage } from '../i18n/languages';
import { type Translator, translator } from '../i18n/translate';
import { approvalCard } from './approval-card';
import type { ApprovalRecord } from './approvals';
import type { CardPublishing } from './card-publisher';
import type { MessageHandle } from './command';
import type { LanguageStore } from './languages';

/** What the copies need. */
export interface ApprovalCopiesDeps {
  publisher: Pick<CardPublishing, 'post' | 'update'>;
  /** The tool's other subscribed conversations (not `conversationId`, none broken). */
  elsewhere?(tool: string, conversationId: string): Promise<string[]>;
  /** The conversations' languages (`/language --here`): each copy is written in its conversation's. */
  languages?: Pick<LanguageStore, 'ofConversation'>;
  logger: { warn(details: object, message: string): void };
}

/** The copies posted, and the language each is written in (by conversation id). */
export interface ApprovalCopies {
  copies: MessageHandle[];
  languages: Record<string, string>;
}

/**
 * Posts the card to the tool's other subscribed conversations, each in its conversation's language;
 * a conversation that refuses is skipped.
 */
export async function postCopies(deps: ApprovalCopiesDeps, record: ApprovalRecord): Promise<ApprovalCopies> {
  const targets = (await deps.elsewhere?.(record.tool, record.conversationId).catch(() => [])) ?? [];
  const store = deps.languages;
  const settings = store
    ? await Promise.all(targets.map((id) => store.ofConversation(id).catch(() => undefined)))
    : [];
  const posted: ApprovalCopies = { copies: [], languages: {} };
  for (const [i, conversationId] of targets.entries()) {
    const say = store ? translator(spokenLanguage(settings[i])) : undefined;
    try {
      posted.copies.push(await deps.publisher.post(conversationId, approvalCard(record, undefined, say)));
      if (say) posted.languages[conversationId] = say.language;
    } catch (error) {
      deps.logger.warn({ err: error, conversation: conversationId }, 'approval card not copied');
    }
  }
  return posted;
}

/**
 * Edits the card and each copy to show the request as it is now, each in the language it was written
 * in; `note` (in the words of that language) replaces the state line.
 */
export async function showEverywhere(
  deps: ApprovalCopiesDeps,
  record: ApprovalRecord,
  note?: (say: Translator) => string,
): Promise<void> {
  const handles = [...(record.handle ? [record.handle] : []), ...(record.copies ?? [])];
  for (const handle of handles) {
    const language = record.languages?.[handle.conversationId];
    const say = language ? translator(language) : undefined;
    await deps.publisher
      .update(handle, approvalCard(record, note?.(say ?? translator('en')), say))
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'approval card not edited'));
  }
}
