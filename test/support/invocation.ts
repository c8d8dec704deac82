/** Invocations of commands that tests hand the command runner directly, as an adapter would. */
import type { ChatUser, Invocation } from '../../src/core/command';
import type { Platform } from '../../src/core/conversation';

/** Where a command is typed: a channel (or a direct conversation, when `private`) of a platform's workspace. */
export interface TestPlace {
  platform: Platform;
  workspace: string;
  channel: string;
  /** Only the user sees the conversation (a direct message with the bot). */
  private?: boolean;
}

/**
 * The invocation of a command typed in `place` by `user`: a user id (who is also named so, unless
 * `name` is given) of the place's workspace, or a whole chat user.
 */
export function invocationAt(place: TestPlace, user: string | ChatUser, name?: string): Invocation {
  const { platform, workspace, channel } = place;
  return {
    user: typeof user === 'string' ? { platform, id: user, name: name ?? user, workspace } : user,
    conversation: { platform, workspace, channel },
    conversationId: `${platform}:${workspace}:${channel}`,
    isPrivate: place.private ?? false,
  };
}
