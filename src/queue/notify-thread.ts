/**
 * Threaded announcements (`/subscribe … --thread`): the first announcement of a resource (one
 * deployment, build or job) in a conversation is its thread's parent; later ones are posted in that
 * thread, and the parent is edited to show the latest state. The parent's handle is kept in Redis
 * per conversation and resource, so any worker process finds it.
 */
import type { Redis } from 'ioredis';
import type { CardPublishing } from '../core/card-publisher';
import type { MessageHandle } from '../core/command';
import type { DraftCard } from '../core/reply';
import type { WatchEvent } from '../core/watch';

/** How long a resource's thread is remembered (a resource quiet for longer starts a new one). */
const THREAD_TTL_SECONDS = 30 * 24 * 3600;

function threadKey(prefix: string, conversationId: string, event: WatchEvent): string {
  return `${prefix}thread:${conversationId}:${event.kind}:${event.tool}:${event.id}`;
}

/**
 * Posts `card` for `event` threaded: as the parent when the resource has no thread here yet, else in
 * the thread, then the parent edited to this latest state (without buttons' delivery key). Returns the
 * handle of the message posted.
 */
export async function postThreaded(
  deps: { cards: CardPublishing; redis: Redis; prefix: string },
  conversationId: string,
  event: WatchEvent,
  card: DraftCard,
): Promise<MessageHandle> {
  const key = threadKey(deps.prefix, conversationId, event);
  const stored = await deps.redis.get(key);
  const parent = stored ? (JSON.parse(stored) as MessageHandle) : undefined;
  if (!parent) {
    const handle = await deps.cards.post(conversationId, card);
    if (handle && typeof handle === 'object') {
      await deps.redis.set(key, JSON.stringify(handle), 'EX', THREAD_TTL_SECONDS);
    }
    return handle;
  }
  const reply = await deps.cards.postInThread(parent, card);
  const latest: DraftCard = { ...card };
  delete latest.delivery;
  await deps.cards.update(parent, latest);
  await deps.redis.expire(key, THREAD_TTL_SECONDS);
  return reply;
}
