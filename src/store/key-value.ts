/**
 * The key-value port adapters get for their own state ({@link KeyValueStore} in `src/core/host.ts`),
 * in Redis under `<prefix><namespace>:`, optionally sealed with the one {@link Sealer}. A sealed
 * value is bound to its full Redis key; one sealed with a previous key or an older format is sealed
 * again with the current key, keeping its expiry, the first time it is read (unless it changed since).
 */
import type { Redis } from 'ioredis';
import { DeckhandError } from '../core/errors';
import type { KeyValueStore, ValueSealer } from '../core/host';
import { type Translator, translator } from '../i18n/translate';
import { replaceString } from './reseal';
import { type Sealer, VaultLockedError } from './sealer';

/** Sealed state could not be opened: written under a key Deckhand no longer has. */
export class SealedStateError extends DeckhandError {
  readonly code = 'state.sealed';

  constructor(namespace: string) {
    const words = (say: Translator) => ({
      message: say.t('store-sealed-state', namespace),
      hint: say.t('store-sealed-state-hint'),
    });
    const english = words(translator('en'));
    super(english.message, english.hint);
    this.words = words;
  }
}

/** Namespaces are lower-case words joined by `:` or `-` (`installations`, `form:answers`). */
const NAMESPACE = /^[a-z][a-z0-9-]*(:[a-z0-9-]+)*$/;

/** A namespace of adapter state in Redis. */
export class RedisKeyValue implements KeyValueStore {
  private readonly base: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly namespace: string,
    private readonly sealer?: Sealer,
  ) {
    if (!NAMESPACE.test(namespace)) throw new Error(`Invalid state namespace "${namespace}"`);
    this.base = `${prefix}${namespace}:`;
  }

  async get(key: string): Promise<string | undefined> {
    const full = this.base + key;
    const raw = await this.redis.get(full);
    if (raw === null) return undefined;
    if (!this.sealer) return raw;
    const opened = this.open(raw, full);
    if (opened.stale) await replaceString(this.redis, full, raw, this.sealer.seal(opened.plaintext, full));
    return opened.plaintext;
  }

  async set(key: string, value: string, options: { ttlMs?: number } = {}): Promise<void> {
    const full = this.base + key;
    const stored = this.sealer ? this.sealer.seal(value, full) : value;
    if (options.ttlMs === undefined) await this.redis.set(full, stored);
    else await this.redis.set(full, stored, 'PX', Math.max(1, Math.ceil(options.ttlMs)));
  }

  async take(key: string): Promise<string | undefined> {
    const full = this.base + key;
    const raw = await this.redis.getdel(full);
    if (raw === null) return undefined;
    return this.sealer ? this.open(raw, full).plaintext : raw;
  }

  async delete(key: string): Promise<boolean> {
    return (await this.redis.del(this.base + key)) === 1;
  }

  private open(raw: string, full: string): { plaintext: string; stale: boolean } {
    try {
      return (this.sealer as Sealer).open(raw, full, { legacy: true });
    } catch (error) {
      if (error instanceof VaultLockedError) throw new SealedStateError(this.namespace);
      throw error;
    }
  }
}

/** The adapters' {@link ValueSealer}: the one sealer, with the older formats adapters wrote. */
export function valueSealer(sealer: Sealer): ValueSealer {
  return {
    seal: (plaintext, context) => sealer.seal(plaintext, `value|${context}`),
    open: (sealed, context) => {
      try {
        return sealer.open(sealed, `value|${context}`, { legacy: true });
      } catch (error) {
        if (error instanceof VaultLockedError) throw new SealedStateError(context);
        throw error;
      }
    },
  };
}
