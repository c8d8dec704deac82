/**
 * Per-conversation waits for announcements: when a platform refuses a post in a conversation for a
 * while (HTTP 429 with `Retry-After`; some platforms limit posting per channel), every delivery to that
 * conversation waits until then, on the queue (delayed, not holding a worker), while deliveries to
 * other conversations go on. The wait is kept in Redis, so every worker process honours it.
 */
import type { Job } from 'bullmq';
import { DelayedError } from 'bullmq';
import type { Redis } from 'ioredis';
import { parseConversationId } from '../core/conversation';

/** The key of a conversation's wait: the channel (a thread shares its channel's limit). */
function pauseKey(prefix: string, conversationId: string): string {
  const { platform, workspace, channel } = parseConversationId(conversationId);
  return `${prefix}post-pause:${platform}:${workspace}:${channel}`;
}

/** Records that `conversationId` takes no posts for `ms` (a longer wait already recorded is kept). */
export async function pauseConversation(
  redis: Redis,
  prefix: string,
  conversationId: string,
  ms: number,
): Promise<number> {
  const key = pauseKey(prefix, conversationId);
  const until = Date.now() + Math.max(1, Math.ceil(ms));
  const left = await redis.pttl(key);
  if (left > ms) return Date.now() + left;
  await redis.set(key, String(until), 'PX', Math.max(1, Math.ceil(ms)));
  return until;
}

/** When the conversation takes posts again (ms since the epoch), or undefined when it does now. */
export async function pausedUntil(
  redis: Redis,
  prefix: string,
  conversationId: string,
): Promise<number | undefined> {
  const left = await redis.pttl(pauseKey(prefix, conversationId));
  return left > 0 ? Date.now() + left : undefined;
}

/**
 * Puts a job back on its queue until `until` without counting an attempt (BullMQ's documented way:
 * `moveToDelayed` then `DelayedError`); it never returns.
 */
export async function waitOnQueue(job: Job, token: string | undefined, until: number): Promise<never> {
  await job.moveToDelayed(until, token);
  throw new DelayedError();
}
