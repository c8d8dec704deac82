import { DelayedError, type Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DeliveryRecords } from '../coordination/delivery-records';
import { isLaneTurn, type LaneTurnDeps, leaveLane as leave, recordLaneWait } from '../coordination/lanes';
import { runWithDeadline } from '../core/command-deadline';
import { type CommandSurfaces, type QueuedSurface, revivedInvocation } from '../core/command-job';
import type { CommandRunner } from '../core/command-runner';
import type { FileResolvers } from '../core/files';
import { invocationLanguages, type LanguageStore, replyLanguage } from '../core/languages';
import { translator } from '../i18n/translate';
import { RedisLanguageStore } from '../store/languages';
import type { CommandJobData } from './command-queue';
import { collectingJobWrites } from './job-writes';

/** What the command worker needs. */
export interface CommandProcessorDeps {
  runner: CommandRunner<unknown>;
  surfaces: CommandSurfaces;
  files: FileResolvers;
  queue: Queue;
  redis: Redis;
  prefix: string;
  logger: Logger;
  /** How long a job waits before it looks at its lane again (default 50 ms). */
  retryMs?: number;
  /**
   * Each command's deadline for its upstream requests, retries included (`COMMAND_DEADLINE_MS`);
   * a request still open a few seconds in shows a "still waiting" card (see command-deadline.ts).
   */
  deadlineMs?: number;
  /**
   * The `/language` settings, for the "still waiting" card's words (default: those in `redis` under
   * `prefix`, where the application keeps them).
   */
  languages?: LanguageStore;
}

/**
 * Runs queued commands: the worker rebuilds the reply surface from the platform's place and calls
 * the command runner. A job runs only at the head of its lane (`src/coordination/lanes.ts`); otherwise it is put back as delayed
 * (`moveToDelayed` + `DelayedError`, BullMQ's documented way, which does not count as an attempt)
 * and looks again shortly; a job that joined an empty lane is its head from the start and does not
 * look (`laneHead`, see `command-queue.ts`). It leaves its lane when it ends, however it ends. A job whose worker
 * died mid-run is found stalled and run again once (`maxStalledCount: 1`); commands with a side
 * effect run under an effect record keyed by the invocation's key, so the second run recognises the
 * first one's work or says it may have run (see `src/core/effects.ts`); a job that fails for good is
 * answered with the interrupted card (`command-interrupted.ts`).
 */
export function createCommandProcessor(deps: CommandProcessorDeps) {
  const retryMs = deps.retryMs ?? 50;
  const languages = deps.languages ?? new RedisLanguageStore(deps.redis, deps.prefix);
  const records = new DeliveryRecords(deps.redis, deps.prefix);
  const turns: LaneTurnDeps = {
    redis: deps.redis,
    prefix: deps.prefix,
    jobState: (id) => deps.queue.getJobState(id),
    dropped: (lane, head, state) =>
      deps.logger.warn({ lane, head, state }, 'dropped a command lane head that is not running'),
  };
  return async (job: Job<CommandJobData>, token?: string): Promise<void> => {
    const { lane, laneHead } = job.data;
    const id = job.id as string;
    if (!laneHead && !(await isLaneTurn(turns, lane, id, job.timestamp))) {
      await job.moveToDelayed(Date.now() + retryMs, token);
      throw new DelayedError();
    }
    recordLaneWait(job.timestamp, laneHead === true);
    const writes: Promise<unknown>[] = [];
    try {
      await collectingJobWrites(writes, () => run(deps, records, languages, job.data, writes));
    } finally {
      // The lane is left while the command's last writes are answered (one round trip for both).
      const left = leave(deps.redis, deps.prefix, lane, id);
      left.catch(() => undefined);
      try {
        await Promise.all(writes);
      } finally {
        await left;
      }
    }
  };
}

async function run(
  deps: CommandProcessorDeps,
  records: DeliveryRecords,
  languages: LanguageStore,
  data: CommandJobData,
  writes: Promise<unknown>[],
): Promise<void> {
  const invocation = { ...revivedInvocation(data.invocation, deps.files), key: data.key };
  const surface = exactlyOnce(
    deps.surfaces.for(data.platform)(data.place, invocation),
    records,
    data.key,
    writes,
  );
  try {
    const deadlineMs = deps.deadlineMs;
    if (deadlineMs === undefined) await deps.runner.run(data.input, invocation, surface);
    else
      await runWithDeadline(
        {
          deadlineMs,
          // Read only when a waiting card is shown: the reply's language (the conversation's, the
          // reader's in a private conversation).
          say: async () =>
            translator(
              replyLanguage({ ...invocation, languages: await invocationLanguages(invocation, languages) }),
            ),
        },
        surface,
        (guarded) => deps.runner.run(data.input, invocation, guarded),
      );
  } finally {
    await surface
      .finish?.()
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, platform: data.platform }, 'could not tidy up after a queued command'),
      );
  }
}

/**
 * The replies of a queued command are posted once even when its worker dies and the command runs
 * again: the n-th reply of a delivery has a posted-record (see `src/coordination/delivery-records.ts`), and a reply
 * whose earlier attempt was interrupted carries its delivery key so the messenger looks for the
 * message before posting it again; one already posted is not posted twice.
 *
 * The first reply's record is started with the job, while the command runs, instead of when the
 * reply is ready: one Redis round trip less between a command and its first card. Its attempt then
 * counts from the job's start, a little earlier than the post, so a retry looks for the message from
 * a little earlier: it still finds it.
 *
 * A reply's posted-record is written while the command goes on: its next Redis commands (the effect
 * record's outcome among them) go after it on the same connection, in the same round trip. The job
 * ends only once every such write is done (`writes`, see `job-writes.ts`), so one that fails fails
 * the job as before.
 */
function exactlyOnce(
  surface: QueuedSurface,
  records: DeliveryRecords,
  key: string,
  writes: Promise<unknown>[],
): QueuedSurface {
  let replies = 0;
  const first = records.begin(`${key}#1`);
  // Read when the first reply is posted; a command that never replies leaves it unread.
  first.catch(() => undefined);
  return {
    ...surface,
    update: (handle, card) => surface.update(handle, card),
    ...(surface.openForm ? { openForm: surface.openForm.bind(surface) } : {}),
    ...(surface.finish ? { finish: surface.finish.bind(surface) } : {}),
    async reply(card) {
      replies += 1;
      const replyKey = `${key}#${replies}`;
      const state = await (replies === 1 ? first : records.begin(replyKey));
      if (state.kind === 'posted') {
        // Shown by an earlier attempt (maybe as the "still waiting" card): brought up to date.
        if (state.handle && card.visibility !== 'private') await surface.update(state.handle, card);
        return state.handle;
      }
      const since = state.kind === 'interrupted' ? { since: state.since } : {};
      const delivery = card.visibility === 'private' ? {} : { delivery: { key: replyKey, ...since } };
      const handle = await surface.reply({ ...card, ...delivery });
      const written = records.posted(replyKey, handle);
      written.catch(() => undefined);
      writes.push(written);
      return handle;
    },
  };
}

/** Removes a job from its lane (a job that failed for good without running, e.g. stalled twice). */
export async function leaveLane(redis: Redis, prefix: string, job: Job<CommandJobData>): Promise<void> {
  await leave(redis, prefix, job.data.lane, job.id as string);
}
