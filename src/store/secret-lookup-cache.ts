/**
 * What one process learnt from the secret index's sets, so that a card drawn again (a deployment card
 * edited at every state, a log tail every two seconds) does not ask Redis about the same spans again
 * (these lookups were the largest share of a busy worker's Redis traffic). Only digests are kept,
 * never the text they were made from:
 * - digests found absent from a set, valid only while the index's version is the one they were
 *   read under: every registration increments the version (in the same transaction as the write), so
 *   a secret registered by any process is seen at the next scrub, whichever process drew the card;
 * - digests found present: a secret stays one (nothing is ever removed from the sets).
 * Bounded: a set is emptied when it reaches its limit.
 */

/** Most digests a set holds before it is emptied. */
const LIMIT = 50_000;

/** The per-process memory of secret index lookups (see the module comment). */
export class SecretLookupCache {
  private readonly absent = new Map<string, Set<string>>();
  private readonly present = new Map<string, Set<string>>();
  private version: string | null | undefined;

  /** Takes the index's current version: absent digests read under another version are forgotten. */
  observe(version: string | null): void {
    if (version !== this.version) this.absent.clear();
    this.version = version;
  }

  /** Of `digests`, those this process does not know the membership of in set `key`. */
  unknown(key: string, digests: readonly string[]): string[] {
    const absent = this.absent.get(key);
    const present = this.present.get(key);
    return digests.filter((d) => !absent?.has(d) && !present?.has(d));
  }

  /** Records what Redis said about `asked` in set `key`: `found` are members, the rest are not. */
  learn(key: string, asked: readonly string[], found: ReadonlySet<string>): void {
    const absent = this.setOf(this.absent, key);
    const present = this.setOf(this.present, key);
    for (const digest of asked) (found.has(digest) ? present : absent).add(digest);
  }

  /** The digests known to be members of set `key`. */
  members(key: string): ReadonlySet<string> {
    return this.present.get(key) ?? new Set();
  }

  private setOf(maps: Map<string, Set<string>>, key: string): Set<string> {
    let set = maps.get(key);
    if (!set || set.size >= LIMIT) {
      set = new Set();
      maps.set(key, set);
    }
    return set;
  }
}
