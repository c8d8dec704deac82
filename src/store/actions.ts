import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ActionStore, StoredAction } from '../core/actions';
import type { StoredForm } from '../core/forms';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A 12-character base62 id: ~71 bits, unguessable, and short enough for every button payload limit. */
export function shortId(length = 12): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % 62];
  return id;
}

/** How many of the actions this process saved last are remembered for {@link RedisActionStore.kindOf}. */
const RECENT_ACTIONS = 1000;

/** What a saved action runs, remembered until it expires. */
type ActionKind = Pick<StoredAction, 'command' | 'confirmed'> & { expiresAt: number };

/**
 * Button actions in Redis, one key per id, expiring with the button. What the actions saved last
 * run is also remembered here, so the card that shows their buttons is rendered without reading
 * them back (its confirm dialogs depend on it).
 */
export class RedisActionStore implements ActionStore {
  private readonly recent = new Map<string, ActionKind>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'dh:',
  ) {}

  async save(action: StoredAction): Promise<string> {
    const id = shortId();
    const ttlMs = Math.max(1000, action.expiresAt - Date.now());
    await this.redis.set(this.key(id), JSON.stringify(action), 'PX', ttlMs);
    this.recent.set(id, {
      command: action.command,
      ...(action.confirmed !== undefined ? { confirmed: action.confirmed } : {}),
      expiresAt: action.expiresAt,
    });
    if (this.recent.size > RECENT_ACTIONS) this.recent.delete(this.recent.keys().next().value as string);
    return id;
  }

  async kindOf(id: string): Promise<Pick<StoredAction, 'command' | 'confirmed'> | undefined> {
    const known = this.recent.get(id);
    if (known && known.expiresAt > Date.now()) {
      const { expiresAt: _, ...kind } = known;
      return kind;
    }
    return this.load(id);
  }

  async load(id: string): Promise<StoredAction | undefined> {
    if (!/^[0-9A-Za-z]{1,32}$/.test(id)) return undefined;
    const raw = await this.redis.get(this.key(id));
    return raw ? (JSON.parse(raw) as StoredAction) : undefined;
  }

  async remove(id: string): Promise<void> {
    this.recent.delete(id);
    await this.redis.del(this.key(id));
  }

  async saveForm(form: StoredForm): Promise<string> {
    const id = shortId();
    await this.redis.set(
      `${this.prefix}form:${id}`,
      JSON.stringify(form),
      'PX',
      Math.max(1000, form.expiresAt - Date.now()),
    );
    return id;
  }

  async loadForm(id: string): Promise<StoredForm | undefined> {
    if (!/^[0-9A-Za-z]{1,32}$/.test(id)) return undefined;
    const raw = await this.redis.get(`${this.prefix}form:${id}`);
    return raw ? (JSON.parse(raw) as StoredForm) : undefined;
  }

  async removeForm(id: string): Promise<void> {
    await this.redis.del(`${this.prefix}form:${id}`);
  }

  private key(id: string): string {
    return `${this.prefix}action:${id}`;
  }
}
