import type { ResourceLocks } from '../../src/coordination/locks';
import type { Invocation } from '../../src/core/command';

/** What {@link startOnce} found or started, and the note its card carries. */
export interface Started<T> {
  value: T;
  note?: string;
}

/** How one kind of long-running resource is started once. */
export interface StartOnce<T> {
  /** Names the resource: one start at a time per name (`deploy:mytool`, `build:mytool:<source>#<ref>`). */
  resource: string;
  invocation: Invocation;
  locks: ResourceLocks;
  /** Shows a started resource by id; `undefined` when it is gone. */
  show(id: string): Promise<T | undefined>;
  isRunning(value: T): boolean;
  /** Starts a new one; returns it with its id (or what is there already, with a note). */
  start(): Promise<{ value: T; id?: string; note?: string }>;
  /** The note of a card that shows one already running. */
  alreadyRunning: string;
  /** What the user is told when another start of the same resource held it too long. */
  busy: string;
  /**
   * Finds what an interrupted earlier attempt of this delivery started (it began at `since`, ms),
   * when the command runs again after that attempt's worker died: a deployment tagged with the
   * delivery key, a build of the same source and ref started since then.
   */
  findOwn?(since: number): Promise<{ value: T; id: string } | undefined>;
  /** Set when an earlier attempt of this delivery was interrupted (`CommandContext.interrupted`). */
  interrupted?: { since: number } | undefined;
  /** {@link readStarted} of this resource and invocation, started earlier (its first look uses it). */
  readAhead?: Promise<StartedIds> | undefined;
}

/** What this delivery started, and what Deckhand last started for the resource (ids, as remembered). */
export type StartedIds = [mine: string | undefined, current: string | undefined];

/** Reads what this delivery and the resource last started (one round trip for both). */
export function readStarted(
  locks: ResourceLocks,
  resource: string,
  invocation: Invocation,
): Promise<StartedIds> {
  const key = invocation.key;
  // Both read at once: the second is not always needed, but it is cheap.
  return Promise.all([key ? locks.recall(`by:${key}`) : undefined, locks.recall(`current:${resource}`)]);
}

/** How long Deckhand remembers what a command started. */
const REMEMBER_SECONDS = 24 * 3600;

/**
 * What is already there: what this very delivery started (a command retried after its worker died
 * finds its own), or what Deckhand last started for the resource, while it still runs.
 */
async function existing<T>(spec: StartOnce<T>, read?: Promise<StartedIds>): Promise<Started<T> | undefined> {
  const key = spec.invocation.key;
  const [mine, current] = await (read ?? readStarted(spec.locks, spec.resource, spec.invocation));
  const own = mine ? await spec.show(mine) : undefined;
  if (own) return { value: own };
  const found = spec.interrupted && spec.findOwn ? await spec.findOwn(spec.interrupted.since) : undefined;
  if (found) {
    await remember(spec, found.id);
    // The interrupted attempt died holding the resource's lock: freed for the next start.
    if (key) await spec.locks.releaseOwned(spec.resource, key);
    return { value: found.value };
  }
  const shown = current ? await spec.show(current).catch(() => undefined) : undefined;
  return shown && spec.isRunning(shown) ? { value: shown, note: spec.alreadyRunning } : undefined;
}

/**
 * Starts a resource once across every Deckhand process: the check for a running one and the start
 * happen under the resource's lock, so concurrent commands — any platform, any worker — start exactly
 * one and all show it; a command run again after a crash shows what its first attempt started.
 */
export async function startOnce<T>(spec: StartOnce<T>): Promise<Started<T>> {
  // The first look may use reads made earlier; the one under the lock reads again.
  const seen = await existing(spec, spec.readAhead);
  if (seen) return seen;
  return spec.locks.withLock(
    spec.resource,
    async () => {
      const found = await existing(spec);
      if (found) return found;
      const started = await spec.start();
      if (started.id) await remember(spec, started.id);
      return { value: started.value, ...(started.note ? { note: started.note } : {}) };
    },
    { busy: spec.busy, ...(spec.invocation.key ? { owner: spec.invocation.key } : {}) },
  );
}

/** Records what this delivery started, and that it is the resource's current one. */
async function remember<T>(spec: StartOnce<T>, id: string): Promise<void> {
  await spec.locks.remember(`current:${spec.resource}`, id, REMEMBER_SECONDS);
  const key = spec.invocation.key;
  if (key) await spec.locks.remember(`by:${key}`, id, REMEMBER_SECONDS);
}
