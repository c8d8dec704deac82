/**
 * The vault's encryption: AES-256-GCM with a 12-byte random nonce per value and additional
 * authenticated data naming the slot (owner and service), so a ciphertext copied into another slot
 * does not decrypt. Each value names the key it was sealed with (the first 8 hex digits of the key's
 * SHA-256), so `SECRET_KEY_PREVIOUS` can open values sealed before a rotation; anything sealed with
 * neither key — or tampered with — fails closed with a {@link VaultLockedError}.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { resolve } from 'node:path';
import { DeckhandError } from '../core/errors';

/** Format tag of a sealed value: `v1.<keyId>.<nonce>.<tag>.<ciphertext>` (base64url parts). */
const VERSION = 'v1';

/** The vault cannot open a stored value: sealed with another key, or corrupted. Nothing is returned. */
export class VaultLockedError extends DeckhandError {
  readonly code = 'vault.locked';

  constructor() {
    super(
      'Deckhand cannot read your stored credentials: they were sealed with a key it no longer has.',
      'An admin may have changed SECRET_KEY without setting SECRET_KEY_PREVIOUS. Link the account again (/link) to store it anew.',
    );
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

/** Keys of a vault: the current one seals and opens; the previous ones only open. */
export interface VaultKeys {
  current: Buffer;
  previous?: Buffer[];
}

/** What {@link VaultCipher.open} returns. */
export interface Opened {
  plaintext: string;
  /** True when the value was sealed with a previous key (re-seal it with the current one). */
  stale: boolean;
}

/** Seals and opens vault values. */
export class VaultCipher {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  constructor(keys: VaultKeys) {
    this.currentId = keyId(keys.current);
    this.keys.set(this.currentId, keys.current);
    for (const key of keys.previous ?? []) this.keys.set(keyId(key), key);
  }

  /** Encrypts `plaintext` for the slot named by `aad`. */
  seal(plaintext: string, aad: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId) as Buffer, nonce);
    cipher.setAAD(Buffer.from(aad));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [nonce, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [VERSION, this.currentId, ...parts].join('.');
  }

  /** Decrypts a sealed value of the slot `aad`; throws {@link VaultLockedError} when it cannot. */
  open(sealed: string, aad: string): Opened {
    const [version, id, nonce, tag, body] = sealed.split('.');
    const key = id ? this.keys.get(id) : undefined;
    if (version !== VERSION || !key || nonce === undefined || tag === undefined || body === undefined) {
      throw new VaultLockedError();
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
      return { plaintext: plain.toString('utf8'), stale: id !== this.currentId };
    } catch {
      throw new VaultLockedError();
    }
  }
}

/** The configuration the vault keys come from. */
export interface VaultKeyConfig {
  SECRET_KEY?: string | undefined;
  SECRET_KEY_PREVIOUS?: string | undefined;
  DATA_DIR: string;
}

/**
 * The vault's keys from `SECRET_KEY` and `SECRET_KEY_PREVIOUS`. Without `SECRET_KEY`, when
 * `allowDevelopmentKey` (the sandbox, or the terminal with no chat platform), a development key
 * derived from this machine, user and data directory (`development: true`; the caller says so once);
 * otherwise an error saying to set it.
 */
export function vaultKeys(
  config: VaultKeyConfig,
  allowDevelopmentKey: boolean,
): VaultKeys & { development: boolean } {
  const previous = config.SECRET_KEY_PREVIOUS
    ? [parseKey(config.SECRET_KEY_PREVIOUS, 'SECRET_KEY_PREVIOUS')]
    : [];
  if (config.SECRET_KEY) return { current: parseKey(config.SECRET_KEY), previous, development: false };
  if (!allowDevelopmentKey) throw new Error(MISSING_SECRET_KEY);
  const material = `${hostname()}\n${userInfo().uid}\n${resolve(config.DATA_DIR)}`;
  const derived = Buffer.from(hkdfSync('sha256', material, 'deckhand-sandbox', 'development vault key', 32));
  return { current: derived, previous, development: true };
}

/** Start-up message when stored credentials need a key and none is configured. */
export const MISSING_SECRET_KEY =
  'SECRET_KEY is not set. Deckhand stores linked accounts and tokens encrypted with it: set SECRET_KEY to 32 random bytes (openssl rand -hex 32) and start again.';
