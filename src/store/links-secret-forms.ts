/**
 * One-time secret entry forms: a private link the bot hands out (`/secrets/<id>`), valid 10 minutes
 * and used at most once, where a user types a credential into a web page instead of the chat. The
 * record (with its CSRF token) is sealed with the vault key and keyed by the SHA-256 of its id.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { randomToken } from './links';
import type { Sealer } from './sealer';
import type { VaultOwner } from './vault';

/** How long a secret form link stays valid. */
export const SECRET_FORM_TTL_SECONDS = 600;

/** Which credential a form collects. */
export type SecretFormKind = 'tool' | 'media' | 'calendar';

/** A secret form waiting to be filled in. */
export interface SecretFormSession {
  owner: VaultOwner;
  name: string;
  conversationId: string;
  isPrivate: boolean;
  kind: SecretFormKind;
  /** For `tool`: the tool the deploy token is for. */
  tool?: string;
  /** Must come back with the form (hidden field and cookie). */
  csrf: string;
  createdAt: number;
}

/** Secret forms in Redis. */
export class SecretFormStore {
  constructor(
    private readonly redis: Redis,
    private readonly cipher: Sealer,
    private readonly prefix = 'dh:',
  ) {}

  /** Opens a form; returns its unguessable id. */
  async create(session: Omit<SecretFormSession, 'csrf' | 'createdAt'>): Promise<string> {
    const id = randomToken(24);
    const key = this.key(id);
    const full: SecretFormSession = { ...session, csrf: randomToken(), createdAt: Date.now() };
    await this.redis.set(key, this.cipher.seal(JSON.stringify(full), key), 'EX', SECRET_FORM_TTL_SECONDS);
    return id;
  }

  /** The form, if it is still open (not used, not expired). */
  async load(id: string): Promise<SecretFormSession | undefined> {
    if (!ID.test(id)) return undefined;
    const key = this.key(id);
    const sealed = await this.redis.get(key);
    return sealed ? this.parse(sealed, key) : undefined;
  }

  /** Closes the form and returns it, once; undefined when already used or expired. */
  async take(id: string): Promise<SecretFormSession | undefined> {
    if (!ID.test(id)) return undefined;
    const key = this.key(id);
    const sealed = await this.redis.getdel(key);
    return sealed ? this.parse(sealed, key) : undefined;
  }

  private parse(sealed: string, key: string): SecretFormSession | undefined {
    const session = JSON.parse(this.cipher.open(sealed, key).plaintext) as SecretFormSession;
    return session.createdAt + SECRET_FORM_TTL_SECONDS * 1000 < Date.now() ? undefined : session;
  }

  private key(id: string): string {
    return `${this.prefix}secret-form:${createHash('sha256').update(id).digest('hex')}`;
  }
}

const ID = /^[A-Za-z0-9_-]{20,64}$/;
