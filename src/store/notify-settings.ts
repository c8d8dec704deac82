/**
 * Personal notification settings (`/notify`) in one Redis hash, one JSON value per person: keyed by
 * their linked identity (`source:<login>`) when they have one, so the settings follow them to every
 * platform they linked, else by their chat account (`<platform>:<workspace>:<user id>`).
 */
import type { Redis } from 'ioredis';
import type { ChatUser } from '../core/command';
import {
  DEFAULT_NOTIFY_SETTINGS,
  type DirectPlatform,
  type NotifySettings,
  type PersonalNotifications,
} from '../core/personal-notify';

/** The linked identity of a chat user (`source:<login>`), if any. */
export type IdentityOf = (user: ChatUser) => Promise<string | undefined>;

/** The hash field of a chat account without a linked identity. */
function accountKey(user: ChatUser): string {
  return `user:${user.platform}:${user.workspace}:${user.id}`;
}

/** Only the fields a chat account needs, so nothing else is kept. */
function accountOf(user: ChatUser): ChatUser {
  return { platform: user.platform, workspace: user.workspace, id: user.id, name: user.name };
}

function parse(raw: string | null): NotifySettings {
  if (!raw) return { ...DEFAULT_NOTIFY_SETTINGS, accounts: {} };
  const stored = JSON.parse(raw) as Partial<NotifySettings>;
  return { ...DEFAULT_NOTIFY_SETTINGS, ...stored, accounts: { ...(stored.accounts ?? {}) } };
}

/** Settings over Redis. */
export class RedisNotifySettings implements PersonalNotifications {
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly identityOf: IdentityOf,
    readonly platforms: readonly DirectPlatform[] = [],
  ) {
    this.key = `${prefix}notify-settings`;
  }

  /** The hash field `user`'s settings live in. */
  private async ownerOf(user: ChatUser): Promise<string> {
    const identity = await this.identityOf(user).catch(() => undefined);
    return identity ? `identity:${identity}` : accountKey(user);
  }

  async settingsOf(user: ChatUser): Promise<NotifySettings> {
    return parse(await this.redis.hget(this.key, await this.ownerOf(user)));
  }

  async update(
    user: ChatUser,
    change: (settings: NotifySettings) => NotifySettings,
  ): Promise<NotifySettings> {
    const owner = await this.ownerOf(user);
    // One person changes their own settings, a command at a time: a plain read and write.
    const next = change(parse(await this.redis.hget(this.key, owner)));
    next.accounts = { ...next.accounts, [user.platform]: accountOf(user) };
    await this.redis.hset(this.key, owner, JSON.stringify(next));
    return next;
  }

  async remember(user: ChatUser): Promise<void> {
    const owner = await this.ownerOf(user);
    if (!owner.startsWith('identity:')) return;
    const current = parse(await this.redis.hget(this.key, owner));
    const known = current.accounts[user.platform];
    if (known?.id === user.id && known.workspace === user.workspace) return;
    await this.update(user, (settings) => settings);
  }

  async linked(user: ChatUser): Promise<boolean> {
    return (await this.ownerOf(user)).startsWith('identity:');
  }
}

/**
 * Reads a chat user's notification settings (the defaults when they never used `/notify`): for
 * views that show them, like a user's home view.
 */
export function readNotifySettings(store: PersonalNotifications, user: ChatUser): Promise<NotifySettings> {
  return store.settingsOf(user);
}
