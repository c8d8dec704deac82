/**
 * The credential vault: per chat user and service, a record of secret values (tokens, keys,
 * passwords) and plain metadata (login, scopes, when it was linked), sealed together with
 * AES-256-GCM (see vault-cipher.ts) in one Redis hash per user. Nothing in Redis is readable
 * without the key. Every value stored or read back is registered with the secret index (as a keyed
 * hash, see secret-index.ts), so no card or log line of any process can print it by accident.
 *
 * Services: `source` (the source-host OAuth token), `tool:<name>` (a deploy token), `media` (an API
 * key), `calendar` (username + application password).
 */
import type { Redis } from 'ioredis';
import type { SecretRegistrar } from '../secrets';
import { replaceField } from './reseal';
import { scanKeys } from './scan-keys';
import type { Sealer } from './sealer';

/** Whose credentials: a chat user, by platform, workspace and id. */
export interface VaultOwner {
  platform: string;
  workspace: string;
  id: string;
}

/** A service a credential is for. */
export type VaultService = 'source' | 'media' | 'calendar' | `tool:${string}`;

/** One stored credential. */
export interface VaultRecord {
  /** Secret values (never shown, logged or audited). */
  secret: Record<string, string>;
  /** Plain facts shown by /whoami (login, scopes, …). */
  meta: Record<string, string | string[]>;
  /** Unix ms when it was stored. */
  storedAt: number;
}

/** What /whoami may show of a credential: everything but its values. */
export interface VaultEntry {
  service: VaultService;
  meta: Record<string, string | string[]>;
  storedAt: number;
}

/** `platform:workspace:id`, the owner's stable key. */
export function ownerKey(owner: VaultOwner): string {
  return `${owner.platform}:${owner.workspace}:${owner.id}`;
}

/** Encrypted per-user credentials in Redis. */
export class CredentialVault {
  constructor(
    private readonly redis: Redis,
    private readonly cipher: Sealer,
    private readonly prefix = 'dh:',
    private readonly secrets?: SecretRegistrar,
  ) {}

  /** Stores (or replaces) a credential. */
  async put(owner: VaultOwner, service: VaultService, record: Omit<VaultRecord, 'storedAt'>): Promise<void> {
    await this.register(record);
    const full: VaultRecord = { ...record, storedAt: Date.now() };
    const sealed = this.cipher.seal(JSON.stringify(full), this.aad(owner, service));
    await this.redis.hset(this.key(owner), service, sealed);
  }

  /**
   * A credential, or undefined when none is stored. Throws `VaultLockedError` when it cannot be
   * opened (a wrong key): the caller never gets a guess. A value sealed with the previous key is
   * re-sealed with the current one.
   */
  async get(owner: VaultOwner, service: VaultService): Promise<VaultRecord | undefined> {
    const sealed = await this.redis.hget(this.key(owner), service);
    if (!sealed) return undefined;
    const opened = this.cipher.open(sealed, this.aad(owner, service));
    const record = JSON.parse(opened.plaintext) as VaultRecord;
    await this.register(record);
    if (opened.stale) {
      const resealed = this.cipher.seal(opened.plaintext, this.aad(owner, service));
      await replaceField(this.redis, this.key(owner), service, sealed, resealed);
    }
    return record;
  }

  /** Every credential of a user, without values (throws `VaultLockedError` like {@link get}). */
  async list(owner: VaultOwner): Promise<VaultEntry[]> {
    const services = (await this.redis.hkeys(this.key(owner))).sort() as VaultService[];
    const entries: VaultEntry[] = [];
    for (const service of services) {
      const record = await this.get(owner, service);
      if (record) entries.push({ service, meta: record.meta, storedAt: record.storedAt });
    }
    return entries;
  }

  /** Deletes a credential; true when there was one. */
  async delete(owner: VaultOwner, service: VaultService): Promise<boolean> {
    return (await this.redis.hdel(this.key(owner), service)) > 0;
  }

  /**
   * Removes `service`'s credential from every user (for a service whose sandbox emulator started
   * afresh, so every stored token for it is void). Returns how many were removed.
   */
  async forgetEveryone(service: VaultService): Promise<number> {
    let removed = 0;
    for await (const keys of scanKeys(this.redis, `${this.prefix}vault:*`)) {
      for (const key of keys) removed += await this.redis.hdel(key, service);
    }
    return removed;
  }

  /** The Redis key of a user's credentials (for tests that look at what is stored). */
  key(owner: VaultOwner): string {
    return `${this.prefix}vault:${ownerKey(owner)}`;
  }

  /** Registers a record's values, and the HTTP Basic credentials a calendar password is sent as. */
  private async register(record: Pick<VaultRecord, 'secret' | 'meta'>): Promise<void> {
    if (!this.secrets) return;
    for (const value of Object.values(record.secret)) await this.secrets.register(value);
    const password = record.secret.applicationPassword;
    if (password && typeof record.meta.username === 'string') {
      const basic = `${record.meta.username}:${password.replace(/\s+/g, '')}`;
      await this.secrets.register(Buffer.from(basic).toString('base64'));
    }
  }

  private aad(owner: VaultOwner, service: VaultService): string {
    return `vault|${ownerKey(owner)}|${service}`;
  }
}
