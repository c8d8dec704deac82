import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { currentCommandScope } from '../core/command-deadline';
import { DeckhandError } from '../core/errors';
import { translator } from '../i18n/translate';
import { lockWait } from '../metrics';

/** Releases a lock only when it still holds this holder's token (it may have expired and been taken). */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Takes a lock that is free, or held by an earlier attempt of the same owner (its value begins with
 * `ARGV[2]`): a command run again after its worker died does not wait out its own dead attempt's hold.
 */
const ACQUIRE_OWNED = `local held = redis.call('get', KEYS[1])
if held and string.sub(held, 1, string.len(ARGV[2])) ~= ARGV[2] then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1`;

/** Deletes a lock held by an earlier attempt of the owner `ARGV[1]` (its value begins with it). */
const RELEASE_OWNED = `local held = redis.call('get', KEYS[1])
if held and string.sub(held, 1, string.len(ARGV[1])) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`;

/** Options of {@link ResourceLocks.withLock}. */
export interface LockOptions {
  /** How long the lock is held at most if its holder dies (default 30 s). */
  holdMs?: number;
  /**
   * How long to wait for the lock before giving up (default: `holdMs` and a margin, so a waiter
   * outlasts a holder that died with it).
   */
  waitMs?: number;
  /** What the user is told when the wait ran out (default: something else is being done to it). */
  busy?: string;
  /**
   * Who takes the lock across attempts (a command's delivery key): a lock an earlier attempt of the
   * same owner left behind (its worker died holding it) is taken over at once instead of waited out.
   */
  owner?: string;
}

/** How much longer than a dead holder can hold a waiter waits by default. */
const WAIT_MARGIN_MS = 5_000;
/** How long before its command's deadline a waiter gives up, to start its work in time. */
const DEADLINE_MARGIN_MS = 2_000;

/**
 * The lock of a resource stayed taken longer than a caller would wait: another command is working
 * on the same thing. Answered in words, with the advice to try again.
 */
export class LockTimeoutError extends DeckhandError {
  readonly code = 'busy';

  constructor(
    readonly resource: string,
    message?: string,
  ) {
    super(message ?? translator('en').t('lock-store-busy'), translator('en').t('lock-store-busy-hint'));
    this.words = (say) => ({
      message: message ?? say.t('lock-store-busy'),
      hint: say.t('lock-store-busy-hint'),
    });
  }
}

/**
 * Per-resource mutual exclusion across every Deckhand process on one Redis (`SET NX PX` with a
 * random token, released by compare-and-delete, as the Redis documentation of `SET` describes for a
 * single instance), and small records of what was done under a lock (e.g. "this /deploy started
 * deployment 42"), so a command retried after a crash finds its own earlier effect.
 */
export class ResourceLocks {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** How often a waiting caller tries again (ms). */
    private readonly pollMs = 15,
  ) {}

  /** Runs `work` while holding the lock of `resource`; waits for it when another holder has it. */
  async withLock<T>(resource: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
    const key = `${this.prefix}lock:${resource}`;
    const owner = options.owner === undefined ? undefined : ownerPrefix(options.owner);
    const token = `${owner ?? ''}${randomBytes(12).toString('hex')}`;
    const holdMs = options.holdMs ?? 30_000;
    // Inside a command, the wait ends before its deadline: past it, the work's requests would be cut
    // unsent, and the user is better told that the resource is busy.
    const scope = currentCommandScope();
    const waitEnd = Date.now() + (options.waitMs ?? holdMs + WAIT_MARGIN_MS);
    const deadline = scope ? Math.min(waitEnd, scope.deadline - DEADLINE_MARGIN_MS) : waitEnd;
    // Only the first try looks for an earlier attempt of the owner: a holder found then is another
    // delivery, so the waits after it take the lock once it is free, with the plain `SET NX`.
    const started = Date.now();
    const takeFree = async () => (await this.redis.set(key, token, 'PX', holdMs, 'NX')) === 'OK';
    let taken =
      owner === undefined
        ? await takeFree()
        : (await this.redis.eval(ACQUIRE_OWNED, 1, key, token, owner, holdMs)) === 1;
    while (!taken) {
      if (Date.now() > deadline) {
        lockWait.observe({ outcome: 'busy' }, (Date.now() - started) / 1000);
        throw new LockTimeoutError(resource, options.busy);
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollMs + Math.random() * this.pollMs));
      taken = await takeFree();
    }
    lockWait.observe({ outcome: 'taken' }, (Date.now() - started) / 1000);
    try {
      return await work();
    } finally {
      await this.redis.eval(RELEASE, 1, key, token);
    }
  }

  /** Frees the lock of `resource` if an earlier attempt of `owner` left it behind. */
  async releaseOwned(resource: string, owner: string): Promise<void> {
    await this.redis.eval(RELEASE_OWNED, 1, `${this.prefix}lock:${resource}`, ownerPrefix(owner));
  }

  /** Remembers `value` under `name` for `ttlSeconds`. */
  async remember(name: string, value: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(`${this.prefix}effect:${name}`, value, 'EX', ttlSeconds);
  }

  /** What was remembered under `name`, if it is still kept. */
  async recall(name: string): Promise<string | undefined> {
    return (await this.redis.get(`${this.prefix}effect:${name}`)) ?? undefined;
  }
}

/** The beginning of every lock token an owner takes. */
function ownerPrefix(owner: string): string {
  return `${owner}|`;
}
