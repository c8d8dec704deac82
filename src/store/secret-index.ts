/**
 * The secret index: which exact values are secrets, shared by every process through Redis without a
 * single plaintext in it. A value is stored as a keyed hash (HMAC-SHA-256 under a key derived from
 * the vault key, truncated to 128 bits) in one set per scope — `global`, or `tool:<name>` for that
 * tool's secret envvar values — and text is masked by hashing each of its candidate spans (see
 * `src/secret-match.ts`) and asking Redis which are members, in one round trip per card. So a secret
 * registered by one process is masked by another, and after a restart, and the hashes cannot be
 * tested against guesses without the key.
 *
 * Configured secrets (bot tokens, keys, passwords in the environment) are hashed in memory at
 * start-up: every process has the same configuration. The sets are named after the key's id, so
 * after a key rotation the index fills again as vault values are read.
 */
import { createHash, createHmac, hkdfSync } from 'node:crypto';
import type { Redis } from 'ioredis';
import { candidates, MAX_WORDS, maskSpans, secretForms } from '../secret-match';
import {
  envvarIsSecret,
  isSecretName,
  type SecretRegistrar,
  type SecretScope,
  type SecretScrubber,
} from '../secrets';
import { SecretLookupCache } from './secret-lookup-cache';

/** Longest candidate span that is hashed (longer values are registered but only found line by line). */
const MAX_CANDIDATE = 1024;

/** Digests asked about per SMISMEMBER. */
const LOOKUP_SLICE = 5000;

/**
 * Base of the index's keys. They are read and written together (the sets, the version, the word
 * counts), so they share a hash tag: one Redis Cluster slot.
 */
export function secretIndexBase(prefix: string, keyId: string): string {
  return `${prefix}secrets:{${keyId}}:`;
}

/** Options of {@link SecretIndex}. */
export interface SecretIndexOptions {
  /** The vault key (`SECRET_KEY`, or the development key): the index key is derived from it. */
  key: Buffer;
  prefix?: string;
  /** The configuration: every value under a secret-looking name is a secret (see {@link configSecrets}). */
  config?: Record<string, unknown>;
}

/** Values of the configuration that are secrets: strings (and `name=value` list items) under secret names. */
export function configSecrets(config: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(config)) {
    if (!isSecretName(name)) continue;
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item !== 'string') continue;
      out.push(item);
      const eq = item.indexOf('=');
      if (Array.isArray(value) && eq > 0) out.push(item.slice(eq + 1));
    }
  }
  return out;
}

/** The Redis-backed secret index (see the module comment). */
export class SecretIndex implements SecretRegistrar, SecretScrubber {
  private readonly hmacKey: Buffer;
  private readonly base: string;
  /** Global digests this process registered, met, or has from its configuration (for {@link scrubKnown}). */
  private readonly known = new Set<string>();
  /** Word counts of multi-word secrets this process knows of. */
  private readonly knownWords = new Set<number>();
  /** `scope|digest` already written by this process (saves repeated writes). */
  private readonly written = new Set<string>();
  /** Digests and memberships this process already knows (see {@link SecretLookupCache}). */
  private readonly lookups = new SecretLookupCache();

  constructor(
    private readonly redis: Redis,
    options: SecretIndexOptions,
  ) {
    this.hmacKey = Buffer.from(hkdfSync('sha256', options.key, 'deckhand', 'secret index v1', 32));
    const id = createHash('sha256').update(this.hmacKey).digest('hex').slice(0, 8);
    this.base = secretIndexBase(options.prefix ?? 'dh:', id);
    for (const value of configSecrets(options.config ?? {})) {
      for (const { form, words } of this.forms(value)) {
        this.known.add(this.digest(form));
        if (words > 1) this.knownWords.add(words);
      }
    }
  }

  async register(value: string | undefined, scope: SecretScope = 'global'): Promise<void> {
    if (!value) return;
    const key = this.scopeKey(scope);
    const digests: string[] = [];
    const words: number[] = [];
    for (const { form, words: count } of this.forms(value)) {
      const digest = this.digest(form);
      if (scope === 'global') this.known.add(digest);
      if (count > 1) {
        this.knownWords.add(count);
        words.push(count);
      }
      if (!this.written.has(`${key}|${digest}`)) digests.push(digest);
    }
    if (digests.length === 0) return;
    // The version tells every process's lookup cache that a set changed.
    const multi = this.redis
      .multi()
      .sadd(key, ...digests)
      .incr(this.versionKey());
    if (words.length > 0) multi.sadd(this.wordsKey(), ...words.map(String));
    await multi.exec();
    for (const digest of digests) this.written.add(`${key}|${digest}`);
  }

  async registerEnvvar(tool: string, name: string, value: string | undefined): Promise<void> {
    if (value === undefined || !envvarIsSecret(name, value)) return;
    await this.register(value, { tool });
  }

  async scrubTexts(
    texts: string[],
    options: { tool?: string; untrusted?: ReadonlySet<number> | 'all' } = {},
  ): Promise<string[]> {
    if (texts.every((t) => t.length < 6)) return texts;
    // Usually one round trip: the lookups made with the word counts read last time, in the same
    // pipeline as the words and version, which confirm them (every registration changes the version).
    const first = await this.scrubWith(texts, options, this.wordsRead);
    if (first.masked) return first.masked;
    return (await this.scrubWith(texts, options, this.wordsRead, true)).masked as string[];
  }

  /** Word counts of multi-word secrets last read from the index, and its version then. */
  private wordsRead: { stored: string[]; version: string | null } | undefined;

  /**
   * Reads the index's words and version and, given the words read before (`assumed`), asks about the
   * digests this process does not know, all in one pipeline; masks `texts` unless the version moved
   * on since `assumed` was read (then the caller asks again with the words just read), or `final`.
   */
  private async scrubWith(
    texts: string[],
    options: { tool?: string; untrusted?: ReadonlySet<number> | 'all' },
    assumed: { stored: string[]; version: string | null } | undefined,
    final = false,
  ): Promise<{ masked?: string[] }> {
    const stored = assumed?.stored ?? [];
    const words = new Set([...this.knownWords, ...stored.map(Number).filter((n) => n > 1 && n <= MAX_WORDS)]);
    const perText = texts.map((text) =>
      candidates(text, words).filter((c) => c.end - c.start <= MAX_CANDIDATE),
    );
    const digestOf = new Map<string, string>();
    for (const list of perText) {
      for (const c of list) if (!digestOf.has(c.text)) digestOf.set(c.text, this.digest(c.text));
    }
    const unique = [...new Set(digestOf.values())];
    const untrusted = options.untrusted;
    const isUntrusted = (i: number) => untrusted === 'all' || untrusted?.has(i) === true;
    const scoped = options.tool !== undefined && (untrusted === 'all' || (untrusted?.size ?? 0) > 0);
    const keys = [
      this.scopeKey('global'),
      ...(scoped ? [this.scopeKey({ tool: options.tool as string })] : []),
    ];
    const asked = keys.map((key) => (assumed ? this.lookups.unknown(key, unique) : []));
    const pipeline = this.redis.pipeline().smembers(this.wordsKey()).get(this.versionKey());
    keys.forEach((key, n) => {
      const digests = asked[n] as string[];
      for (let i = 0; i < digests.length; i += LOOKUP_SLICE) {
        pipeline.smismember(key, ...digests.slice(i, i + LOOKUP_SLICE));
      }
    });
    const replies = (await pipeline.exec()) ?? [];
    for (const [error] of replies) if (error) throw error;
    const [read, current] = replies.splice(0, 2).map(([, value]) => value) as [string[], string | null];
    this.wordsRead = { stored: read, version: current ?? null };
    this.lookups.observe(current ?? null);
    if (!assumed || (!final && (current ?? null) !== assumed.version)) return {};
    const [global, tool = new Set<string>()] = keys.map((key, n) => {
      const digests = asked[n] as string[];
      const flags = replies
        .splice(0, Math.ceil(digests.length / LOOKUP_SLICE))
        .flatMap(([, f]) => f as number[]);
      const found = new Set(digests.filter((_, i) => flags[i] === 1));
      this.lookups.learn(key, digests, found);
      const known = this.lookups.members(key);
      return new Set(unique.filter((d) => found.has(d) || known.has(d)));
    }) as [Set<string>, Set<string>?];
    for (const digest of global) this.known.add(digest);
    if (unique.length === 0) return { masked: texts };
    const masked = texts.map((text, i) => {
      const useTool = isUntrusted(i);
      const spans = (perText[i] ?? []).filter((c) => {
        const digest = digestOf.get(c.text) as string;
        return global.has(digest) || this.known.has(digest) || (useTool && tool.has(digest));
      });
      return maskSpans(text, spans);
    });
    return { masked };
  }

  scrubKnown(text: string): string {
    if (this.known.size === 0 || text.length < 6) return text;
    const spans = candidates(text, this.knownWords).filter(
      (c) => c.end - c.start <= MAX_CANDIDATE && this.known.has(this.digest(c.text)),
    );
    return maskSpans(text, spans);
  }

  /** The forms a value is registered under; a multi-line value (a PEM key) also line by line. */
  private forms(value: string): { form: string; words: number }[] {
    const forms = secretForms(value);
    if (value.includes('\n')) {
      for (const line of value.split(/\r?\n/)) if (line.trim().length >= 16) forms.push(...secretForms(line));
    }
    return forms;
  }

  private digest(text: string): string {
    return createHmac('sha256', this.hmacKey).update(text).digest('base64url').slice(0, 22);
  }

  private scopeKey(scope: SecretScope): string {
    return scope === 'global' ? `${this.base}global` : `${this.base}tool:${scope.tool}`;
  }

  private wordsKey(): string {
    return `${this.base}words`;
  }

  private versionKey(): string {
    return `${this.base}version`;
  }
}
