/**
 * The approval card's copies: besides the conversation it was asked in, the card is posted to every
 * other conversation subscribed to the tool, so a maintainer there can decide (Approve and Deny work
 * from any of them), and every copy is edited with each decision.
 */
import { approvalCard } from './approval-card';
import type { ApprovalRecord } from './approvals';
import type { CardPublishing } from './card-publisher';
import type { MessageHandle } from './command';

/** What the copies need. */
export interface ApprovalCopiesDeps {
  publisher: Pick<CardPublishing, 'post' | 'update'>;
  /** The tool's other subscribed conversations (not `conversationId`, none broken). */
  elsewhere?(tool: string, conversationId: string): Promise<string[]>;
  logger: { warn(details: object, message: string): void };
}

/** Posts the card to the tool's other subscribed conversations; a conversation that refuses is skipped. */
export async function postCopies(deps: ApprovalCopiesDeps, record: ApprovalRecord): Promise<MessageHandle[]> {
  const targets = (await deps.elsewhere?.(record.tool, record.conversationId).catch(() => [])) ?? [];
  const copies: MessageHandle[] = [];
  for (const conversationId of targets) {
    try {
      copies.push(await deps.publisher.post(conversationId, approvalCard(record)));
    } catch (error) {
      deps.logger.warn({ err: error, conversation: conversationId }, 'approval card not copied');
    }
  }
  return copies;
}

/** Edits the card and each copy to show the request as it is now. */
export async function showEverywhere(
  deps: ApprovalCopiesDeps,
  record: ApprovalRecord,
  note?: string,
): Promise<void> {
  const handles = [...(record.handle ? [record.handle] : []), ...(record.copies ?? [])];
  for (const handle of handles) {
    await deps.publisher
      .update(handle, approvalCard(record, note))
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'approval card not edited'));
  }
}
