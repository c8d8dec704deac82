/**
 * Sealing again what an older key sealed, without waiting for each value to be read: after a
 * `SECRET_KEY` rotation every process sweeps its Redis prefix once at start-up (while
 * `SECRET_KEY_PREVIOUS` is set), so the previous key can be dropped as soon as a sweep reports
 * nothing stale left. Each write is a compare-and-set: a value changed since it was read (a user
 * linking again, a workspace installed again) is left as the newer write made it.
 *
 * What is swept: credential vault hashes (`vault:*`, slot `vault|<owner>|<service>`) and every string
 * value sealed with its own Redis key as its slot (workspace installations, pending OAuth links, secret
 * form sessions), in the current format or the older one without key id. Form answers kept inside a
 * form's record are sealed again when the form is next read, and expire with it.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { scanKeys } from './scan-keys';
import type { Sealer } from './sealer';

/** Sets a string to `next` only while it still holds `seen`, keeping its expiry. */
const CAS_STRING = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') return 1 end return 0`;

/** Sets a hash field to `next` only while it still holds `seen`. */
const CAS_HASH = `if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) return 1 end return 0`;

/** Replaces a string value sealed with an older key; false when it changed in between. */
export async function replaceString(redis: Redis, key: string, seen: string, next: string): Promise<boolean> {
  return (await redis.eval(CAS_STRING, 1, key, seen, next)) === 1;
}

/** Replaces a hash field sealed with an older key; false when it changed in between. */
export async function replaceField(
  redis: Redis,
  key: string,
  field: string,
  seen: string,
  next: string,
): Promise<boolean> {
  return (await redis.eval(CAS_HASH, 1, key, field, seen, next)) === 1;
}

/** What one sweep did. */
export interface ResealReport {
  /** Values sealed again with the current key. */
  resealed: number;
  /** Sealed values no configured key opens (they stay as they are). */
  unreadable: number;
}

/** A string that has the shape of a sealed value: `v1.` and four or five dot-separated parts. */
function looksSealed(value: string): boolean {
  if (!value.startsWith('v1.')) return false;
  const parts = value.split('.').length;
  return parts === 4 || parts === 5;
}

/** Sweeps every key under `prefix` once (see the module comment). */
export async function resealAtRest(redis: Redis, prefix: string, sealer: Sealer): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, unreadable: 0 };
  const vault = `${prefix}vault:`;
  const reseal = async (
    sealed: string,
    aad: string,
    legacy: boolean,
    write: (next: string) => Promise<boolean>,
  ) => {
    let opened: { plaintext: string; stale: boolean };
    try {
      opened = sealer.open(sealed, aad, { legacy });
    } catch {
      report.unreadable += 1;
      return;
    }
    if (opened.stale && (await write(sealer.seal(opened.plaintext, aad)))) report.resealed += 1;
  };
  for await (const keys of scanKeys(redis, `${prefix}*`)) {
    for (const key of keys) {
      if (key.startsWith(vault)) {
        const owner = key.slice(vault.length);
        const fields = await redis.hgetall(key).catch(() => ({}) as Record<string, string>);
        for (const [service, sealed] of Object.entries(fields)) {
          await reseal(sealed, `vault|${owner}|${service}`, false, (n) =>
            replaceField(redis, key, service, sealed, n),
          );
        }
        continue;
      }
      if ((await redis.type(key)) !== 'string') continue;
      const value = await redis.get(key);
      if (value === null || !looksSealed(value)) continue;
      await reseal(value, key, true, (n) => replaceString(redis, key, value, n));
    }
  }
  return report;
}

/**
 * With `SECRET_KEY_PREVIOUS` set, seals everything stored under the previous key again in the
 * background and says in the log when the previous key is no longer needed.
 */
export function sweepAfterRotation(redis: Redis, prefix: string, sealer: Sealer, logger: Logger): void {
  resealAtRest(redis, prefix, sealer).then(
    ({ resealed, unreadable }) => {
      const left = unreadable
        ? ` ${unreadable} sealed with neither key stay unreadable.`
        : ' SECRET_KEY_PREVIOUS can be removed once every process runs with this SECRET_KEY.';
      logger.info(
        { resealed, unreadable },
        `SECRET_KEY rotation: ${resealed} stored secrets sealed again.${left}`,
      );
    },
    (error: unknown) => {
      logger.warn(
        { err: error },
        'SECRET_KEY rotation: the sweep stopped; stored secrets are sealed again as they are read',
      );
    },
  );
}
