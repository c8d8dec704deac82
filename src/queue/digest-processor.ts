/**
 * Runs one digest, the calendar's or a tool's: computes the period of the run (from the time the
 * job scheduler set for it, `prevMillis`, also in its job id `repeat:<scheduler>:<ms>`, so every attempt at one run names one period), asks
 * the commands for the card and posts it. Each period is posted once: an effect record per scheduler
 * and period is claimed before posting and closed after it, so a retry after a crash, or a second job
 * for the same period, posts nothing again; a worker that died (or a post that failed) between the
 * claim and its outcome leaves a claim without one, and the retry posts with a note that it may have
 * been posted already (and carries the period's delivery key, on which platforms that can dedupe a
 * post do). Building the card has no effect and happens before the claim.
 * A conversation the bot can no longer post in loses its digest instead of being retried every day;
 * a service that cannot be reached is retried by BullMQ.
 */
import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { CardPublishing } from '../core/card-publisher';
import { type DigestPeriod, digestPeriod, scheduledAtOf } from '../core/digest-period';
import type { EffectLedger } from '../core/effects';
import { ConversationGoneError } from '../core/errors';
import type { DraftCard } from '../core/reply';
import { translator } from '../i18n/translate';
import { type DigestJobData, digestSchedulerId } from './digest-scheduler';

/** What the digest processor needs. */
export interface DigestDeps {
  /** The digest card of a run for its period; undefined when there is nothing to post. */
  build(data: DigestJobData, period: DigestPeriod): Promise<DraftCard | undefined>;
  /** Posts the digest card. */
  cards: Pick<CardPublishing, 'post'>;
  /** Stops a digest. */
  remove(data: DigestJobData): Promise<unknown>;
  /** Effect records: one per scheduler and period. */
  effects: EffectLedger;
  logger: Logger;
  now?: () => number;
}

/** The effect record key of one digest period. */
export function digestEffectKey(data: DigestJobData, period: DigestPeriod): string {
  return `${digestSchedulerId(data.conversationId, data.tool)}|${period.end}`;
}

/** The platform idempotency key of one digest period (the shape of announcement keys). */
function deliveryKeyOf(effectKey: string): string {
  return `digest-${createHash('sha256').update(effectKey).digest('hex').slice(0, 40)}`;
}

/** The processor of the `digest` queue. */
export function createDigestProcessor(deps: DigestDeps) {
  const now = deps.now ?? Date.now;
  return async (job: Job<DigestJobData>): Promise<'posted' | 'empty' | 'gone' | 'done'> => {
    const data = job.data;
    const period = digestPeriod(data, job.opts.prevMillis ?? scheduledAtOf(job.id) ?? now());
    const card = await deps.build(data, period);
    if (!card) return 'empty';
    const key = digestEffectKey(data, period);
    const state = await deps.effects.claim(key, now());
    if (state.kind === 'finished') return 'done';
    const interrupted = state.kind === 'interrupted';
    const posted: DraftCard = {
      ...card,
      ...(interrupted
        ? { footer: `${card.footer ?? ''} · ${translator(card.locale).t('queue-digest-maybe-posted')}` }
        : {}),
      // Where the platform can dedupe a post (a nonce, metadata), it does so on this key.
      delivery: { key: deliveryKeyOf(key), ...(interrupted ? { since: state.since } : {}) },
    };
    try {
      await deps.cards.post(data.conversationId, posted);
      await deps.effects.finish(key, 'posted');
      return 'posted';
    } catch (error) {
      // The post may have arrived although it failed here: the claim stays, the retry says so.
      if (!(error instanceof ConversationGoneError)) throw error;
      deps.logger.warn(
        { conversation: data.conversationId, tool: data.tool, reason: error.message },
        'digest stopped: the conversation is gone',
      );
      await deps.remove(data);
      await deps.effects.finish(key, 'gone');
      return 'gone';
    }
  };
}
