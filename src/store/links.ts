/**
 * Pending source-host OAuth links: one record per authorize link handed out, keyed by the SHA-256 of
 * its unguessable `state`, sealed with the vault key (it holds the PKCE verifier), expiring after 10
 * minutes and taken at most once (GETDEL), so a replayed or expired `state` finds nothing. Beside
 * it, the browser binding: the SHA-256 of the random cookie given to the one browser that opened
 * Deckhand's start link (set once, NX), taken with the link at the callback.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Sealer } from './sealer';
import type { VaultOwner } from './vault';

/** How long an authorize link stays valid. */
export const LINK_TTL_SECONDS = 600;

/** A command to run again once the link is made. */
export interface PendingCommand {
  command: string;
  args: Record<string, unknown>;
}

/** What Deckhand remembers about an authorize link until its callback. */
export interface PendingLink {
  owner: VaultOwner;
  /** Display name of the chat user. */
  name: string;
  /** Where `/link` (or the command needing the link) was run. */
  conversationId: string;
  isPrivate: boolean;
  /** Scopes asked for. */
  scopes: string[];
  /** PKCE verifier (secret): its S256 challenge went into the authorize link. */
  codeVerifier: string;
  redirectUri: string;
  /** The command that needed the link, run again once linked. */
  replay?: PendingCommand;
  createdAt: number;
}

/** 32 random bytes, base64url: unguessable ids for states, verifiers and form tokens. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Pending OAuth links in Redis. */
export class PendingLinkStore {
  constructor(
    private readonly redis: Redis,
    private readonly cipher: Sealer,
    private readonly prefix = 'dh:',
  ) {}

  /** Remembers a pending link; returns its fresh `state`. */
  async create(link: PendingLink): Promise<string> {
    const state = randomToken();
    const key = this.key(state);
    await this.redis.set(key, this.cipher.seal(JSON.stringify(link), key), 'EX', LINK_TTL_SECONDS);
    return state;
  }

  /** Takes a pending link by its `state` (once); undefined when unknown, used or expired. */
  take(state: string): Promise<PendingLink | undefined> {
    return this.read(state, (key) => this.redis.getdel(key));
  }

  /** Reads a pending link without taking it (the start link); undefined when unknown or expired. */
  peek(state: string): Promise<PendingLink | undefined> {
    return this.read(state, (key) => this.redis.get(key));
  }

  /** The pending link of `state`, fetched by `fetch` (taking it or not); undefined when unknown or expired. */
  private async read(
    state: string,
    fetch: (key: string) => Promise<string | null>,
  ): Promise<PendingLink | undefined> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(state)) return undefined;
    const key = this.key(state);
    const sealed = await fetch(key);
    if (!sealed) return undefined;
    const link = JSON.parse(this.cipher.open(sealed, key).plaintext) as PendingLink;
    return link.createdAt + LINK_TTL_SECONDS * 1000 < Date.now() ? undefined : link;
  }

  /**
   * Binds the pending link to one browser by the hash of its cookie; false when a browser was
   * bound before (the start link works once).
   */
  async bind(state: string, browserHash: string, ttlSeconds: number): Promise<boolean> {
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    return (await this.redis.set(this.bindingKey(state), browserHash, 'EX', ttl, 'NX')) === 'OK';
  }

  /** True when a browser was bound to the link already (its start link was used). */
  async isBound(state: string): Promise<boolean> {
    return (await this.redis.exists(this.bindingKey(state))) === 1;
  }

  /** Takes the browser binding of a link (once); undefined when no browser was bound. */
  async takeBinding(state: string): Promise<string | undefined> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(state)) return undefined;
    return (await this.redis.getdel(this.bindingKey(state))) ?? undefined;
  }

  private bindingKey(state: string): string {
    return `${this.prefix}oauth-browser:${createHash('sha256').update(state).digest('hex')}`;
  }

  private key(state: string): string {
    return `${this.prefix}oauth-state:${createHash('sha256').update(state).digest('hex')}`;
  }
}
