import type { ChatUser, MessageHandle } from './command';
import type { Platform } from './conversation';
import type { Card } from './reply';

/**
 * Posts and edits cards by conversation id and handle alone, so a worker in another process can keep a
 * card up to date. Each adapter registers one.
 */
export interface Messenger {
  post(conversationId: string, card: Card): Promise<MessageHandle>;
  update(handle: MessageHandle, card: Card): Promise<void>;
  /**
   * Posts a card in the thread of a posted message (a thread timestamp, a reply, …); absent
   * where the adapter has no threads, and then callers post it as a message of its own.
   */
  postInThread?(parent: MessageHandle, card: Card): Promise<MessageHandle>;
  /**
   * The conversation id of the bot's direct conversation with `user`, opened (or found again) the
   * way the platform allows; absent where the platform has none. Calling it again gives the same
   * conversation.
   */
  openDirect?(user: ChatUser): Promise<string>;
  /** A web link to a posted message, where the platform has one (absent, or undefined: none). */
  linkTo?(handle: MessageHandle): Promise<string | undefined>;
}

/** The messengers of the adapters running in this process, by platform. */
export class Messengers {
  private readonly byPlatform = new Map<Platform, Messenger>();
  private readonly listeners: ((platform: Platform) => void)[] = [];

  register(platform: Platform, messenger: Messenger): void {
    this.byPlatform.set(platform, messenger);
    for (const listener of this.listeners) listener(platform);
  }

  /** Calls `listener` with every platform registered from now on. */
  onRegister(listener: (platform: Platform) => void): void {
    this.listeners.push(listener);
  }

  /** The platforms registered so far. */
  platforms(): Platform[] {
    return [...this.byPlatform.keys()];
  }

  /** The messenger for a platform; throws when that adapter is not running here. */
  for(platform: Platform): Messenger {
    const messenger = this.byPlatform.get(platform);
    if (!messenger) throw new Error(`no ${platform} adapter is running in this process`);
    return messenger;
  }

  /**
   * The direct conversation with `user` on their platform; throws when that adapter is not running
   * here or cannot open one.
   */
  async openDirect(user: ChatUser): Promise<string> {
    const messenger = this.for(user.platform);
    if (!messenger.openDirect) throw new Error(`direct messages are not available on ${user.platform}`);
    return messenger.openDirect(user);
  }

  /** A web link to a posted message; undefined when its platform has none or its adapter is not here. */
  async linkTo(handle: MessageHandle): Promise<string | undefined> {
    const messenger = this.byPlatform.get(handle.platform);
    return messenger?.linkTo?.(handle).catch(() => undefined);
  }

  has(platform: Platform): boolean {
    return this.byPlatform.has(platform);
  }
}
