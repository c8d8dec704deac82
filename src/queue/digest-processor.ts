/**
 * Runs one calendar digest: builds the card of upcoming events (the commands decide what it looks
 * like) and posts it to the conversation. A conversation the bot can no longer post in loses its
 * digest instead of being retried every day; a calendar that cannot be reached is retried by BullMQ.
 */
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { CardPublishing } from '../core/card-publisher';
import { ConversationGoneError } from '../core/errors';
import type { DraftCard } from '../core/reply';
import type { DigestJobData } from './digest-scheduler';

/** What the digest processor needs. */
export interface DigestDeps {
  /** The digest card for a conversation; undefined when there is nothing to post. */
  build(data: DigestJobData): Promise<DraftCard | undefined>;
  /** Posts the digest card. */
  cards: Pick<CardPublishing, 'post'>;
  /** Stops a conversation's digest. */
  remove(conversationId: string): Promise<unknown>;
  logger: Logger;
}

/** The processor of the `digest` queue. */
export function createDigestProcessor(deps: DigestDeps) {
  return async (job: Job<DigestJobData>): Promise<'posted' | 'empty' | 'gone'> => {
    const data = job.data;
    const card = await deps.build(data);
    if (!card) return 'empty';
    try {
      await deps.cards.post(data.conversationId, card);
      return 'posted';
    } catch (error) {
      if (!(error instanceof ConversationGoneError)) throw error;
      deps.logger.warn(
        { conversation: data.conversationId, reason: error.message },
        'calendar digest stopped: the conversation is gone',
      );
      await deps.remove(data.conversationId);
      return 'gone';
    }
  };
}
