import type { Redis } from 'ioredis';
import type { Platform } from '../core/conversation';

/** What a conversation can subscribe to. */
export type SubscriptionKind = 'builds' | 'deploys' | 'jobs';

/** Every subscription kind. */
export const SUBSCRIPTION_KINDS: readonly SubscriptionKind[] = ['builds', 'deploys', 'jobs'];

/** One conversation's subscription to one tool. */
export interface Subscription {
  conversationId: string;
  platform: Platform;
  tool: string;
  kinds: SubscriptionKind[];
  /** Only failures are announced. */
  failuresOnly: boolean;
  /** Only failed→successful and successful→failed transitions are announced. */
  changesOnly: boolean;
  /**
   * Group announcements by resource: the first one of a deployment (or build, or job) is posted,
   * later ones go into its thread, and the first message is edited to the latest state.
   */
  thread?: boolean;
  /** `compact`: live announcements are one line (the title); full (the default) adds the detail. */
  format?: 'compact';
  /** `platform:user` of who subscribed. */
  createdBy: string;
  /** Set when posting there failed for good (the bot was removed); nothing is sent until re-subscribed. */
  broken?: string;
}

/**
 * Subscriptions in Redis: a hash per tool (conversation → subscription), a set of subscribed tools, and a
 * set of tools per conversation.
 */
export class SubscriptionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
  ) {}

  /**
   * Adds or replaces a conversation's subscription to a tool. The three keys live in different
   * Cluster slots and need no atomicity: the indexes are written with the subscription, every write
   * is idempotent, and readers skip an index entry whose subscription is missing.
   */
  async put(subscription: Subscription): Promise<void> {
    const { tool, conversationId } = subscription;
    await Promise.all([
      this.redis.sadd(`${this.prefix}subs:tools`, tool),
      this.redis.sadd(this.convKey(conversationId), tool),
      this.redis.hset(this.toolKey(tool), conversationId, JSON.stringify(subscription)),
    ]);
  }

  /** A conversation's subscription to a tool, if any. */
  async get(conversationId: string, tool: string): Promise<Subscription | undefined> {
    const raw = await this.redis.hget(this.toolKey(tool), conversationId);
    return raw ? (JSON.parse(raw) as Subscription) : undefined;
  }

  /** Removes a conversation's subscription to a tool. */
  async remove(conversationId: string, tool: string): Promise<void> {
    await Promise.all([
      this.redis.hdel(this.toolKey(tool), conversationId),
      this.redis.srem(this.convKey(conversationId), tool),
    ]);
    if ((await this.redis.hlen(this.toolKey(tool))) === 0)
      await this.redis.srem(`${this.prefix}subs:tools`, tool);
  }

  /** Every subscription of a tool. */
  async forTool(tool: string): Promise<Subscription[]> {
    const all = await this.redis.hgetall(this.toolKey(tool));
    return Object.values(all).map((raw) => JSON.parse(raw) as Subscription);
  }

  /** Every subscription of a conversation. */
  async forConversation(conversationId: string): Promise<Subscription[]> {
    const tools = await this.redis.smembers(this.convKey(conversationId));
    const found = await Promise.all(tools.sort().map((tool) => this.get(conversationId, tool)));
    return found.filter((s): s is Subscription => s !== undefined);
  }

  /** Tools with at least one subscription. */
  async tools(): Promise<string[]> {
    return (await this.redis.smembers(`${this.prefix}subs:tools`)).sort();
  }

  /** Marks a conversation's subscriptions broken (every tool), so nothing more is sent there. */
  async markBroken(conversationId: string, reason: string): Promise<void> {
    for (const subscription of await this.forConversation(conversationId)) {
      await this.put({ ...subscription, broken: reason });
    }
  }

  private toolKey(tool: string): string {
    return `${this.prefix}subs:tool:${tool}`;
  }

  private convKey(conversationId: string): string {
    return `${this.prefix}subs:conv:${conversationId}`;
  }
}
