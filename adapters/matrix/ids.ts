/**
 * Matrix conversation ids and message handles. A conversation is `matrix:<bot user id>:<room id>`
 * (the bot's user id is the workspace: two bot accounts never share state), and with a thread root
 * `…:<event id>`; colons inside are escaped by the core's codec. A handle's `ref` is
 * `{ room, message[, thread] }` — plain strings any process can use.
 */
import type { MessageHandle } from '../../src/core/command';
import { conversationId, parseConversationId } from '../../src/core/conversation';

/** The conversation id of a room (and thread). */
export function matrixConversationId(botUserId: string, roomId: string, threadRoot?: string): string {
  return conversationId({
    platform: 'matrix',
    workspace: botUserId,
    channel: roomId,
    ...(threadRoot ? { thread: threadRoot } : {}),
  });
}

/** The room (and thread root) of a Matrix conversation id. */
export function roomOf(id: string): { roomId: string; threadRoot?: string } {
  const ref = parseConversationId(id);
  if (ref.platform !== 'matrix' || !ref.channel.startsWith('!'))
    throw new Error(`not a Matrix conversation: ${id}`);
  return { roomId: ref.channel, ...(ref.thread ? { threadRoot: ref.thread } : {}) };
}

/** The handle of a posted message. */
export function messageHandle(
  conversationId: string,
  roomId: string,
  eventId: string,
  thread?: string,
): MessageHandle {
  return {
    platform: 'matrix',
    conversationId,
    ref: { room: roomId, message: eventId, ...(thread ? { thread } : {}) },
  };
}

/** The server part of a user id (`@ada:example.org` → `example.org`). */
export function serverOfUser(userId: string): string {
  return userId.slice(userId.indexOf(':') + 1);
}
