import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { CardPublishing } from '../core/card-publisher';
import type { MessageHandle } from '../core/command';
import type { Starter } from '../core/personal-notify';
import { pollDelayMs } from '../core/poll-schedule';
import type { DraftCard } from '../core/reply';
import type { WatchEvent, WatchKind, WatchKindName, WatchObservation } from '../core/watch';
import { translator } from '../i18n/translate';
import { createPollProcessor, isGone } from './poll-job';
import { notifyJobId, type Queues, type WatchJobData } from './queues';
import { watchCardsKey, watchStarterKey } from './watch-service';

/** What the watch processor needs. */
export interface WatchProcessorDeps<S> {
  kinds: readonly WatchKind<S>[];
  services: S;
  queues: Queues;
  redis: Redis;
  prefix: string;
  /** Edits the watch's card. */
  cards: Pick<CardPublishing, 'update'>;
  logger: Logger;
  basePollMs: number;
  maxPollMs: number;
  maxAgeMs: number;
}

/** Consecutive failed polls after which a watch gives up. */
const MAX_ERRORS = 40;

/**
 * One poll of a watched resource. On a change it edits every card of the watch and queues one event for
 * the subscribed conversations (idempotent: a poll retried after a crash produces the same event id).
 * One job follows a resource for its whole life, held by its worker between polls and taken over by
 * another after a crash or a close (poll-job.ts), so it survives restarts of any process.
 */
export function createWatchProcessor<S>(deps: WatchProcessorDeps<S>) {
  const kinds = new Map<WatchKindName, WatchKind<S>>(deps.kinds.map((k) => [k.name, k]));

  const cardsOf = async (job: Job<WatchJobData>): Promise<MessageHandle[]> =>
    (await deps.redis.smembers(watchCardsKey(deps.prefix, job.id as string))).map(
      (raw) => JSON.parse(raw) as MessageHandle,
    );

  const editAll = async (job: Job<WatchJobData>, card: DraftCard) => {
    for (const handle of await cardsOf(job)) {
      try {
        await deps.cards.update(handle, card);
      } catch (error) {
        deps.logger.warn(
          { err: error, watch: job.id, conversation: handle.conversationId },
          'could not update a watched card',
        );
      }
    }
  };

  const finish = async (job: Job<WatchJobData>, card?: DraftCard) => {
    if (card) await editAll(job, card);
    await deps.redis.del(watchCardsKey(deps.prefix, job.id as string));
  };

  /** Who started the resource from chat, read when it ended (they may get a direct message). */
  const starterOf = async (job: Job<WatchJobData>): Promise<Starter | undefined> => {
    const raw = await deps.redis.get(watchStarterKey(deps.prefix, job.id as string));
    return raw ? (JSON.parse(raw) as Starter) : undefined;
  };

  const announce = async (job: Job<WatchJobData>, data: WatchJobData, observation: WatchObservation) => {
    const starter = observation.terminal ? await starterOf(job) : undefined;
    const event: WatchEvent = {
      tool: data.tool,
      kind: data.kind,
      id: data.id,
      from: data.lastState ?? 'unknown',
      to: observation.state,
      at: Date.now(),
      detail: observation.detail ?? '',
      terminal: observation.terminal,
      outcome: observation.outcome,
      ...(observation.failure ? { failure: observation.failure } : {}),
      ...(observation.claim ? { claim: observation.claim } : {}),
      ...(starter ? { starter } : {}),
    };
    await deps.queues.notify.add('event', event, {
      jobId: notifyJobId(event),
      removeOnComplete: { age: 86_400 },
      removeOnFail: { age: 86_400 },
    });
  };

  return async (job: Job<WatchJobData>, token?: string, signal?: AbortSignal): Promise<string> => {
    const kind = kinds.get(job.data.kind);
    if (!kind) throw new Error(`unknown watch kind ${job.data.kind}`);
    const gaveUp = (data: WatchJobData, why: string) =>
      kind.gaveUp(data.tool, data.id, parseCard(data.lastCard), why);
    const poll = createPollProcessor<WatchJobData, WatchObservation>({
      label: 'watch',
      look: (data) => kind.observe(deps.services, data.tool, data.id, translator(data.language)),
      seen: async (data, observation, next) => {
        const cardJson = JSON.stringify(observation.card);
        if (cardJson !== data.lastCard) await editAll(job, observation.card);
        if (observation.state !== data.lastState) await announce(job, data, observation);
        if (observation.terminal) {
          await finish(job);
          return { done: observation.state };
        }
        return { next: { ...next, lastState: observation.state, lastCard: cardJson } };
      },
      fatal: async (data, error) => {
        if (!isGone(error)) return undefined;
        await finish(job, gaveUp(data, translator(data.language).t('queue-watch-gone')));
        return 'gone';
      },
      giveUp: async (data, reason) => {
        if (reason === 'failing') {
          await finish(job, gaveUp(data, translator(data.language).t('queue-watch-failing')));
          return 'gave-up';
        }
        const minutes = Math.round(deps.maxAgeMs / 60_000);
        await finish(job, gaveUp(data, translator(data.language).t('queue-still-running', String(minutes))));
        return 'too-old';
      },
      delayMs: ({ attempt }) => pollDelayMs(attempt, deps.basePollMs, deps.maxPollMs),
      maxErrors: MAX_ERRORS,
      maxAgeMs: deps.maxAgeMs,
      logger: deps.logger,
    });
    return poll(job, token, signal);
  };
}

function parseCard(json: string | undefined): DraftCard | undefined {
  return json ? (JSON.parse(json) as DraftCard) : undefined;
}
