/**
 * Tool locks and freeze windows in Redis. A lock is one key per tool, `<prefix>tool-lock:{<tool>}`,
 * holding the lock as JSON with a expiry at its end: taking it is one script (free, expired, the
 * holder's own, or taken over with `take`), so of two people locking at once exactly one holds it.
 * Freezes are one hash per tool, `<prefix>tool-freezes:{<tool>}` (field per window, `#next` the id
 * counter). Both keys are tagged by their tool, so every operation (one key, or both read together)
 * stays in one hash slot on a Cluster.
 */
import type { Redis } from 'ioredis';
import type { ChangeGuardStore, GuardState, LockResult, ToolFreeze, ToolLock } from '../core/change-guard';

/**
 * ARGV: lock JSON, hold ms, holder, take ('1'), now. Returns `{1, previous}` when taken (previous
 * JSON or ''), `{0, held}` when someone else holds an unexpired lock and take was not asked.
 */
const LOCK = `local held = redis.call('get', KEYS[1])
if held and ARGV[4] ~= '1' then
  local ok, current = pcall(cjson.decode, held)
  if ok and current.holder ~= ARGV[3] and tonumber(current['until']) > tonumber(ARGV[5]) then
    return {0, held}
  end
end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {1, held or ''}`;

/** Deletes the lock and returns what it held (false when there was none). */
const UNLOCK = `local held = redis.call('get', KEYS[1])
if held then redis.call('del', KEYS[1]) end
return held`;

/** Adds a freeze under the next id of the hash and returns the id. */
const ADD_FREEZE = `local id = redis.call('hincrby', KEYS[1], '#next', 1)
redis.call('hset', KEYS[1], tostring(id), ARGV[1])
return id`;

const NEXT_ID_FIELD = '#next';

/** The freeze windows of a hash's fields and values, oldest first (values this version cannot read are left out). */
function parseFreezes(all: Record<string, string>): ToolFreeze[] {
  const found: ToolFreeze[] = [];
  for (const [id, raw] of Object.entries(all)) {
    if (id === NEXT_ID_FIELD) continue;
    try {
      found.push({ ...(JSON.parse(raw) as Omit<ToolFreeze, 'id'>), id });
    } catch {
      // A value this version cannot read is left alone rather than guessed at.
    }
  }
  return found.sort((a, b) => Number(a.id) - Number(b.id));
}

function parseLock(raw: string | null | undefined): ToolLock | undefined {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as ToolLock;
  } catch {
    return undefined;
  }
}

/** {@link ChangeGuardStore} on Redis. */
export class RedisToolGuards implements ChangeGuardStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private lockKey(tool: string): string {
    return `${this.prefix}tool-lock:{${tool}}`;
  }

  private freezeKey(tool: string): string {
    return `${this.prefix}tool-freezes:{${tool}}`;
  }

  async lock(lock: ToolLock, options: { take: boolean }): Promise<LockResult> {
    const holdMs = Math.max(1, lock.until - lock.since);
    const [taken, other] = (await this.redis.eval(
      LOCK,
      1,
      this.lockKey(lock.tool),
      JSON.stringify(lock),
      String(holdMs),
      lock.holder,
      options.take ? '1' : '0',
      String(lock.since),
    )) as [number, string];
    const found = parseLock(other);
    if (taken !== 1 && found) return { kind: 'held', lock: found };
    const previous = found && found.holder !== lock.holder && found.until > lock.since ? found : undefined;
    return { kind: 'taken', lock, previous };
  }

  async unlock(tool: string): Promise<ToolLock | undefined> {
    const held = parseLock((await this.redis.eval(UNLOCK, 1, this.lockKey(tool))) as string | null);
    return held && held.until > Date.now() ? held : undefined;
  }

  async currentLock(tool: string, now = Date.now()): Promise<ToolLock | undefined> {
    const lock = parseLock(await this.redis.get(this.lockKey(tool)));
    return lock && lock.until > now ? lock : undefined;
  }

  async addFreeze(tool: string, freeze: Omit<ToolFreeze, 'id'>): Promise<string> {
    const id = await this.redis.eval(ADD_FREEZE, 1, this.freezeKey(tool), JSON.stringify(freeze));
    return String(id);
  }

  async removeFreeze(tool: string, id: string): Promise<boolean> {
    if (id === NEXT_ID_FIELD) return false;
    return (await this.redis.hdel(this.freezeKey(tool), id)) === 1;
  }

  async freezes(tool: string): Promise<ToolFreeze[]> {
    return parseFreezes(await this.redis.hgetall(this.freezeKey(tool)));
  }

  async state(tool: string, now = Date.now()): Promise<GuardState> {
    // Sent together (one round trip); each refuses on its own, so no snapshot of both is needed.
    const [rawLock, all] = await Promise.all([
      this.redis.get(this.lockKey(tool)),
      this.redis.hgetall(this.freezeKey(tool)),
    ]);
    const lock = parseLock(rawLock);
    return { lock: lock && lock.until > now ? lock : undefined, freezes: parseFreezes(all) };
  }
}
