/**
 * The queue workers of a process (`--role worker|all`, and the shell), built by `createApp`: the
 * watches, announcements and discovery of `src/queue/runtime.ts`, plus the processors wired here —
 * queued commands (and the notice of one interrupted for good), uploads, source-host migrations, log
 * tails and digests (calendar and tools). Every worker posts and edits its cards through the one card publisher.
 */
import type { Job, Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import { type AppServices, TAIL_VIEW, WATCH_KINDS } from '../../commands';
import { digestCard } from '../../commands/calendar/calendar-digest';
import { tailViewIn } from '../../commands/toolhost/tail';
import { type ToolDigestSources, toolDigestCard } from '../../commands/toolhost/tool-digest';
import { RedisEffectLedger } from '../coordination/effect-records';
import type { CardPublisher } from '../core/card-publisher';
import type { CommandSurfaces } from '../core/command-job';
import type { CommandRunner } from '../core/command-runner';
import type { FileResolvers } from '../core/files';
import type { Messengers } from '../core/messenger';
import { spacingMs } from '../core/send-budget';
import { translator } from '../i18n/translate';
import { createInterruptedNotice } from '../queue/command-interrupted';
import { createCommandProcessor, leaveLane } from '../queue/command-processor';
import type { CommandJobData } from '../queue/command-queue';
import { createDigestProcessor } from '../queue/digest-processor';
import { queuePersonal } from '../queue/personal-delivery';
import { FOLLOWS_PER_WORKER, startWorkers, type Workers } from '../queue/runtime';
import { createTailProcessor } from '../queue/tail-processor';
import { ToolEventLog } from '../store/tool-events';
import type { Accounts } from './accounts';
import type { AppState } from './app-services';
import type { MediaSetup } from './media';
import { conversationBudget } from './platforms';

/** Commands one worker process runs at once (they wait on the network, within their bulkheads). */
export const COMMAND_CONCURRENCY = 200;

/** What the workers of a process are built from. */
export interface AppWorkersDeps {
  services: AppServices;
  /** The queues and stores (watches, tails). */
  state: AppState;
  /** The connection the workers duplicate for their blocking reads. */
  connection: Redis;
  redis: Redis;
  prefix: string;
  runner: CommandRunner<AppServices>;
  publisher: CardPublisher;
  surfaces: CommandSurfaces;
  files: FileResolvers;
  messengers: Messengers;
  media: MediaSetup;
  accounts: Accounts;
  /** The tool platform is emulated: its time runs at `SANDBOX_STEP_MS`, watches poll faster. */
  compressed: boolean;
}

/** Starts every worker of this process. */
export function startAppWorkers(deps: AppWorkersDeps): Workers {
  const { services, redis, prefix, state } = deps;
  const { config, logger } = services;
  const queues = state.queues;
  const basePollMs = deps.compressed
    ? Math.max(10, Math.min(config.WATCH_POLL_MS, Math.round(config.SANDBOX_STEP_MS / 3)))
    : config.WATCH_POLL_MS;
  const runner = deps.runner as CommandRunner<unknown>;
  const interrupted = createInterruptedNotice({
    runner,
    surfaces: deps.surfaces,
    files: deps.files,
    redis,
    prefix,
    logger,
  });
  const maxAgeMs = config.WATCH_MAX_MINUTES * 60_000;
  const toolEvents = new ToolEventLog(redis, prefix);
  const toolDigests: ToolDigestSources = {
    changes: (tool, limit) => services.accounts.audit.recent({ tool, limit }),
    events: (tool, start, end) => toolEvents.between(tool, start, end),
  };
  const personal = {
    settings: services.notifications,
    minDurationMs: config.NOTIFY_AFTER_SECONDS * 1000,
    available: () => deps.messengers.platforms(),
  };
  return startWorkers<AppServices>({
    queues,
    connection: deps.connection,
    keyPrefix: prefix,
    redis,
    kinds: WATCH_KINDS,
    services,
    toolhost: services.toolhost,
    watches: state.watches,
    subscriptions: services.subscriptions,
    cards: deps.publisher,
    logger,
    basePollMs,
    maxPollMs: Math.max(basePollMs, 15_000),
    maxAgeMs,
    lockMs: config.QUEUE_LOCK_MS,
    platforms: deps.messengers.platforms(),
    failures: services.accounts.failures,
    personal,
    openDirect: (user) => deps.messengers.openDirect(user),
    linkTo: (handle) => deps.messengers.linkTo(handle),
    // Two looks of discovery without a new failure make a claimed job's recovery.
    recoveryQuietMs: 2 * state.discoveryEveryMs,
    extra: {
      commands: {
        processor: createCommandProcessor({
          runner,
          surfaces: deps.surfaces,
          files: deps.files,
          queue: queues.commands,
          redis,
          prefix,
          logger,
          deadlineMs: config.COMMAND_DEADLINE_MS,
        }) as Processor,
        // Upstream requests are limited per service and per tool (services/bulkhead.ts), far
        // below this: a silent service fills its compartments, not the command worker.
        concurrency: COMMAND_CONCURRENCY,
        // A worker that died mid-command: the command runs once more, never a third time.
        maxStalledCount: 1,
        onFailed: async (job) => {
          const failed = job as never as Job<CommandJobData>;
          await leaveLane(redis, prefix, failed);
          await interrupted(failed);
        },
      },
      upload: {
        processor: deps.media.processor((event, card) =>
          queuePersonal(personal, queues, event, logger, card),
        ),
        concurrency: 20,
      },
      migration: {
        processor: deps.accounts.migrationProcessor({
          services,
          cards: deps.publisher,
          basePollMs,
          maxAgeMs,
        }),
        concurrency: FOLLOWS_PER_WORKER,
      },
      tail: {
        processor: createTailProcessor({
          toolhost: services.toolhost,
          tails: state.tails,
          view: TAIL_VIEW,
          viewIn: tailViewIn,
          language: async (conversationId) => services.languages?.ofConversation(conversationId),
          cards: deps.publisher,
          scrub: (lines, tool) => services.accounts.secrets.scrubTexts(lines, { tool, untrusted: 'all' }),
          logger,
          editMs: config.TAIL_EDIT_MS,
          editGapMs: (conversationId) => spacingMs(conversationBudget(conversationId).edits),
          maxMs: config.TAIL_MAX_MINUTES * 60_000,
        }) as Processor,
        concurrency: 100,
      },
      digest: {
        processor: createDigestProcessor({
          // Posted where everyone reads: in the conversation's language (`/language --here`).
          build: async (data, period) => {
            const say = translator(
              await services.languages?.ofConversation(data.conversationId).catch(() => undefined),
            );
            const card = data.tool
              ? await toolDigestCard(toolDigests, data, period, say)
              : await digestCard(services.calendar, data, say);
            return card && { ...card, locale: say.language };
          },
          cards: deps.publisher,
          remove: (data) => services.digests.remove(data.conversationId, data.tool),
          effects: new RedisEffectLedger(redis, prefix),
          logger,
        }) as Processor,
        concurrency: 5,
      },
    },
  });
}
