import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DeliveryRecords } from '../coordination/delivery-records';
import { type CommandSurfaces, revivedInvocation } from '../core/command-job';
import type { CommandRunner } from '../core/command-runner';
import type { FileResolvers } from '../core/files';
import { interruptedCard } from '../core/interrupted';
import { replyLanguage } from '../core/languages';
import { translator } from '../i18n/translate';
import type { CommandJobData } from './command-queue';

/** What telling the user about a failed command job needs. */
export interface InterruptedNoticeDeps {
  runner: CommandRunner<unknown>;
  surfaces: CommandSurfaces;
  files: FileResolvers;
  redis: Redis;
  prefix: string;
  logger: Logger;
}

/**
 * Tells the person whose queued command failed for good outside its run (its worker died once more
 * than the stalled-job limit allows, or anything else failed it after the request was acknowledged)
 * that it was interrupted and may have partly run, and how to check: never silence. The card is
 * posted once per delivery (a posted-record, as for the command's own replies).
 */
export function createInterruptedNotice(deps: InterruptedNoticeDeps) {
  const records = new DeliveryRecords(deps.redis, deps.prefix);
  return async (job: Job<CommandJobData>): Promise<void> => {
    const data = job.data;
    const invocation = { ...revivedInvocation(data.invocation, deps.files), key: data.key };
    const surface = deps.surfaces.for(data.platform)(data.place, invocation);
    const replyKey = `${data.key}#interrupted`;
    const state = await records.begin(replyKey);
    if (state.kind === 'posted') return;
    const card = interruptedCard(deps.runner.registry, data.input, translator(replyLanguage(invocation)));
    const since = state.kind === 'interrupted' ? { since: state.since } : {};
    const text = deps.runner.formOf(invocation.conversationId).text(card.text ?? '');
    try {
      const handle = await surface.reply({ ...card, text, delivery: { key: replyKey, ...since } });
      await records.posted(replyKey, handle);
    } finally {
      await surface.finish?.().catch(() => undefined);
    }
    deps.logger.warn({ job: job.id, reason: job.failedReason }, 'a queued command failed; its user was told');
  };
}
