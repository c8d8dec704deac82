/**
 * The one encryption of secrets at rest: credential vault values, pending OAuth links, secret form
 * sessions, workspace installations and adapters' sealed state. AES-256-GCM with a 12-byte random nonce
 * per value and additional authenticated data naming the slot (a vault owner and service, a Redis
 * key), so a ciphertext copied into another slot does not open. Each value names the key it was
 * sealed with (the first 8 hex digits of the key's SHA-256), so `SECRET_KEY_PREVIOUS` opens values
 * sealed before a rotation, and the caller seals them again with the current key; anything sealed
 * with neither key — or tampered with — fails closed with a {@link VaultLockedError}.
 *
 * Two older formats without a key id or slot are still opened where the caller allows them
 * (`legacy`): `v1.<iv>.<tag>.<body>` (workspace installations) and `<iv>:<tag>:<body>` (form answers
 * kept by an adapter), both standard base64. They are opened with each key in turn and are always stale, so
 * their first read stores them in the current format.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { resolve } from 'node:path';
import { DeckhandError } from '../core/errors';
import { type Translator, translator } from '../i18n/translate';

/** Format tag of a sealed value: `v1.<keyId>.<nonce>.<tag>.<ciphertext>` (base64url parts). */
const VERSION = 'v1';

/** A stored secret cannot be opened: sealed with another key, or corrupted. Nothing is returned. */
export class VaultLockedError extends DeckhandError {
  readonly code = 'vault.locked';

  constructor() {
    const words = (say: Translator) => ({
      message: say.t('vault-locked'),
      hint: say.t('vault-locked-hint'),
    });
    const english = words(translator('en'));
    super(english.message, english.hint);
    this.words = words;
  }
}

/** Reads a 32-byte key given as 64 hex digits or base64; throws naming `name` otherwise. */
export function parseKey(value: string, name = 'SECRET_KEY'): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes, as 64 hex digits or base64`);
  return key;
}

/** Short public id of a key (not a secret: 32 bits of its SHA-256). */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** Keys of a sealer: the current one seals and opens; the previous ones only open. */
export interface SealerKeys {
  current: Buffer;
  previous?: Buffer[] | undefined;
}

/** What {@link Sealer.open} returns. */
export interface Opened {
  plaintext: string;
  /** True when the value was sealed with a previous key or in an older format (seal it again). */
  stale: boolean;
}

/** How {@link Sealer.open} reads a value. */
export interface OpenOptions {
  /** Also open the older formats without key id and slot (data written before the one format). */
  legacy?: boolean;
}

/** Seals and opens secrets at rest. */
export class Sealer {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  constructor(keys: SealerKeys) {
    this.currentId = keyId(keys.current);
    this.keys.set(this.currentId, keys.current);
    for (const key of keys.previous ?? []) if (!this.keys.has(keyId(key))) this.keys.set(keyId(key), key);
  }

  /** Encrypts `plaintext` for the slot named by `aad`, with the current key. */
  seal(plaintext: string, aad: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId) as Buffer, nonce);
    cipher.setAAD(Buffer.from(aad));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [nonce, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [VERSION, this.currentId, ...parts].join('.');
  }

  /** Decrypts a sealed value of the slot `aad`; throws {@link VaultLockedError} when it cannot. */
  open(sealed: string, aad: string, options: OpenOptions = {}): Opened {
    const dotted = sealed.split('.');
    if (dotted.length === 5) return this.openCurrent(dotted, aad);
    if (options.legacy) {
      const parts = dotted.length === 4 && dotted[0] === VERSION ? dotted.slice(1) : sealed.split(':');
      if (parts.length === 3) return { plaintext: this.openLegacy(parts), stale: true };
    }
    throw new VaultLockedError();
  }

  private openCurrent([version, id, nonce, tag, body]: string[], aad: string): Opened {
    const key = id ? this.keys.get(id) : undefined;
    if (version !== VERSION || !key || nonce === undefined || tag === undefined || body === undefined) {
      throw new VaultLockedError();
    }
    const plaintext = decrypt(key, [nonce, tag, body], 'base64url', aad);
    if (plaintext === undefined) throw new VaultLockedError();
    return { plaintext, stale: id !== this.currentId };
  }

  private openLegacy(parts: string[]): string {
    for (const key of this.keys.values()) {
      const plaintext = decrypt(key, parts, 'base64');
      if (plaintext !== undefined) return plaintext;
    }
    throw new VaultLockedError();
  }
}

/** AES-256-GCM decryption of `[nonce, tag, body]`; undefined when the key or the data is wrong. */
function decrypt(key: Buffer, parts: string[], encoding: BufferEncoding, aad?: string): string | undefined {
  const [nonce = '', tag = '', body = ''] = parts;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, encoding));
    if (aad !== undefined) decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(tag, encoding));
    return Buffer.concat([decipher.update(Buffer.from(body, encoding)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The configuration the keys come from. */
export interface SealerKeyConfig {
  SECRET_KEY?: string | undefined;
  SECRET_KEY_PREVIOUS?: string | undefined;
  DATA_DIR: string;
}

/**
 * The keys from `SECRET_KEY` and `SECRET_KEY_PREVIOUS`. Without `SECRET_KEY`, when
 * `allowDevelopmentKey` (the sandbox, or the terminal with no chat platform), a development key
 * derived from this machine, user and data directory (`development: true`; the caller says so once);
 * otherwise an error saying to set it.
 */
export function sealerKeys(
  config: SealerKeyConfig,
  allowDevelopmentKey: boolean,
): SealerKeys & { development: boolean } {
  const previous = config.SECRET_KEY_PREVIOUS
    ? [parseKey(config.SECRET_KEY_PREVIOUS, 'SECRET_KEY_PREVIOUS')]
    : [];
  if (config.SECRET_KEY) return { current: parseKey(config.SECRET_KEY), previous, development: false };
  if (!allowDevelopmentKey) throw new Error(MISSING_SECRET_KEY);
  const material = `${hostname()}\n${userInfo().uid}\n${resolve(config.DATA_DIR)}`;
  const derived = Buffer.from(hkdfSync('sha256', material, 'deckhand-sandbox', 'development vault key', 32));
  return { current: derived, previous, development: true };
}

/** Start-up message when stored secrets need a key and none is configured. */
export const MISSING_SECRET_KEY =
  'SECRET_KEY is not set. Deckhand stores linked accounts and tokens encrypted with it: set SECRET_KEY to 32 random bytes (openssl rand -hex 32) and start again.';
