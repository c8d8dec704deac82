/**
 * Conversation ids are plain strings `platform:workspace:channel[:thread]`, storable in Redis and
 * comparable across processes.
 */

/**
 * A chat platform's name, as its descriptor gives it (adapters/platforms.ts lists them): lower-case
 * letters, digits and `-`. The core treats every platform alike.
 */
export type Platform = string;

/** A parsed conversation id. */
export interface ConversationRef {
  platform: Platform;
  workspace: string;
  channel: string;
  thread?: string;
}

const PLATFORM_NAME = /^[a-z][a-z0-9-]*$/;

/** Builds the string id of a conversation. Colons inside parts are percent-encoded. */
export function conversationId(ref: ConversationRef): string {
  const parts = [ref.platform, ref.workspace, ref.channel];
  if (ref.thread) parts.push(ref.thread);
  return parts.map((p) => p.replaceAll('%', '%25').replaceAll(':', '%3A')).join(':');
}

/** Parses a conversation id made by {@link conversationId}; throws on a malformed one. */
export function parseConversationId(id: string): ConversationRef {
  const parts = id.split(':').map((p) => p.replaceAll('%3A', ':').replaceAll('%25', '%'));
  const [platform, workspace, channel, thread] = parts;
  if (!platform || !PLATFORM_NAME.test(platform) || workspace === undefined || !channel) {
    throw new Error(`malformed conversation id: ${id}`);
  }
  if (parts.length > 4) throw new Error(`malformed conversation id: ${id}`);
  return { platform, workspace, channel, ...(thread ? { thread } : {}) };
}
