/**
 * Follows a source-host migration on the `migration` queue: one job per migration (its job id), moved
 * back to `delayed` between polls (1 s growing ×1.5 up to the cap; poll-job.ts), so it survives
 * restarts. The status card is edited when it changes; at the end the announcement is posted once (claimed in
 * Redis) and, for a private conversation, the archive link.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { CardPublishing } from '../core/card-publisher';
import type { MessageHandle } from '../core/command';
import { NotFoundError } from '../core/errors';
import { pollDelayMs } from '../core/poll-schedule';
import type { DraftCard } from '../core/reply';
import type { Translator } from '../i18n/translate';
import { createPollProcessor, isGone } from './poll-job';
import { migrationJobId } from './queues';

/** What a migration job carries (the request, plus poll bookkeeping). */
export interface MigrationJobData {
  owner: string;
  id: number;
  user: { platform: string; workspace: string; id: string; name: string };
  conversationId: string;
  isPrivate: boolean;
  handle?: MessageHandle;
  startedAt: number;
  /** Polls done so far (drives the back-off). */
  attempt: number;
  /** Consecutive failed polls. */
  errors: number;
  lastCard?: string;
}

/** One look at the migration (commands/sourcehost/source-watch.ts). */
export interface MigrationLook {
  state: string;
  terminal: boolean;
  card: DraftCard;
  announcement?: DraftCard;
  archive?: DraftCard;
}

/** What the processor needs. */
export interface MigrationProcessorDeps {
  observe(data: MigrationJobData): Promise<MigrationLook>;
  /** The card of a follow given up, in the follow's language; `reason` says why in a reader's words. */
  gaveUp(data: MigrationJobData, reason: (say: Translator) => string): Promise<DraftCard>;
  /** Edits the migration's card and posts its announcements. */
  cards: Pick<CardPublishing, 'post' | 'update'>;
  redis: Redis;
  prefix: string;
  logger: Logger;
  basePollMs: number;
  maxPollMs: number;
  maxAgeMs: number;
}

const MAX_ERRORS = 40;

/** Queues the watch of a migration (a second request for the same migration is ignored). */
export async function followMigration(
  queue: Queue,
  request: Omit<MigrationJobData, 'startedAt' | 'attempt' | 'errors'>,
): Promise<void> {
  const data: MigrationJobData = { ...request, startedAt: Date.now(), attempt: 0, errors: 0 };
  await queue.add('migration', data, {
    jobId: migrationJobId(request.owner, request.id),
    removeOnComplete: { age: 300 },
    removeOnFail: { age: 86_400 },
  });
}

/** The processor of the `migration` queue. */
export function createMigrationProcessor(deps: MigrationProcessorDeps) {
  const edit = async (data: MigrationJobData, card: DraftCard) => {
    if (!data.handle) return;
    try {
      await deps.cards.update(data.handle, card);
    } catch (error) {
      deps.logger.warn({ err: error, migration: data.id }, 'could not update a migration card');
    }
  };

  const announceOnce = async (data: MigrationJobData, look: MigrationLook) => {
    const key = `${deps.prefix}migration-announced:${data.owner}:${data.id}`;
    if ((await deps.redis.set(key, look.state, 'EX', 7 * 86_400, 'NX')) !== 'OK') return;
    if (look.announcement) await deps.cards.post(data.conversationId, look.announcement);
    if (look.archive) await deps.cards.post(data.conversationId, look.archive);
  };

  return createPollProcessor<MigrationJobData, MigrationLook>({
    label: 'migration',
    look: (data) => deps.observe(data),
    seen: async (data, look, next) => {
      const cardJson = JSON.stringify(look.card);
      if (cardJson !== data.lastCard) await edit(data, look.card);
      if (look.terminal) {
        await announceOnce(data, look);
        return { done: look.state };
      }
      return { next: { ...next, lastCard: cardJson } };
    },
    fatal: async (data, error) => {
      if (!isGone(error)) return undefined;
      const gone = (say: Translator) =>
        error instanceof NotFoundError
          ? (error.words?.(say).message ?? error.message)
          : say.t('queue-migration-gone');
      await edit(data, await deps.gaveUp(data, gone));
      return 'gone';
    },
    giveUp: async (data, reason) => {
      if (reason === 'failing') {
        await edit(data, await deps.gaveUp(data, (say) => say.t('queue-migration-failing')));
        return 'gave-up';
      }
      const minutes = String(Math.round(deps.maxAgeMs / 60_000));
      await edit(data, await deps.gaveUp(data, (say) => say.t('queue-still-running', minutes)));
      return 'too-old';
    },
    delayMs: ({ attempt }) => pollDelayMs(attempt, deps.basePollMs, deps.maxPollMs),
    maxErrors: MAX_ERRORS,
    maxAgeMs: deps.maxAgeMs,
    logger: deps.logger,
  });
}
