/**
 * The direct message to the person who started a piece of work, when it ends (`/notify`): decided
 * once per event on the fan-out (their settings, quiet hours, the work's length), then delivered by
 * the deliver queue of the platform it goes to, through the same exactly-once delivery as the
 * announcements (a stable job id, a posted-record, the delivery key on the message).
 */
import type { Logger } from 'pino';
import type { ChatUser } from '../core/command';
import { conversationId } from '../core/conversation';
import { directRecipient, type PersonalNotifications, personalVerdict } from '../core/personal-notify';
import type { DraftCard } from '../core/reply';
import type { WatchEvent } from '../core/watch';
import { DELIVER_QUEUES, type DeliverJobData, deliverJob, deliverQueueOf, type Queues } from './queues';

/** What the personal step of the fan-out needs. */
export interface PersonalDeps {
  settings: PersonalNotifications;
  /** Work shorter than this sends nothing. */
  minDurationMs: number;
  /**
   * The platforms whose adapters run (a preferred platform that does not falls back to where the
   * work was started, so no message waits for an adapter that never comes); absent: all.
   */
  available?: () => readonly string[];
}

/**
 * The stand-in conversation id of a direct delivery to `user` (their platform, workspace and `@id`):
 * it names the delivery (its job id and posted-record); the deliver worker opens the real
 * conversation on the platform.
 */
export function directDeliveryId(user: ChatUser): string {
  return conversationId({ platform: user.platform, workspace: user.workspace, channel: `@${user.id}` });
}

function hasDeliverQueue(platform: string): boolean {
  return (DELIVER_QUEUES as readonly string[]).includes(`deliver-${platform}`);
}

/** The deliver job of a direct message about `event` to `user` (with `card`: that card, not the kind's announcement). */
export function directJob(event: WatchEvent, user: ChatUser, card?: DraftCard) {
  const job = deliverJob(event, directDeliveryId(user));
  const data: DeliverJobData = { ...job.data, direct: user, ...(card ? { card } : {}) };
  return { ...job, data };
}

/**
 * Queues the direct message about an ended piece of work to its starter, when their settings want
 * it. A retried fan-out queues the same job id, which the queue ignores. Returns the account it goes
 * to, or why nothing was queued.
 */
export async function queuePersonal(
  deps: PersonalDeps,
  queues: Queues,
  event: WatchEvent,
  logger: Logger,
  card?: DraftCard,
): Promise<ChatUser | string> {
  const starter = event.starter;
  if (!event.terminal || !starter) return 'no starter';
  const settings = await deps.settings.settingsOf(starter.user);
  const verdict = personalVerdict(settings, {
    outcome: event.outcome,
    startedAt: starter.startedAt,
    endedAt: event.at,
    minDurationMs: deps.minDurationMs,
  });
  if (!verdict.send) {
    logger.debug({ tool: event.tool, id: event.id, reason: verdict.reason }, 'no direct message');
    return verdict.reason;
  }
  const preferred = directRecipient(settings, starter.user);
  const running = deps.available?.() ?? [preferred.platform];
  const usable = hasDeliverQueue(preferred.platform) && running.includes(preferred.platform);
  const recipient = usable ? preferred : starter.user;
  if (!hasDeliverQueue(recipient.platform)) return 'no deliver queue';
  const job = directJob(event, recipient, card);
  await queues[deliverQueueOf(recipient.platform)].add(job.name, job.data, job.opts);
  return recipient;
}
