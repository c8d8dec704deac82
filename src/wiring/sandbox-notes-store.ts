/**
 * The sandbox's start-up notes (sandbox-notes.ts) kept in Redis while the process runs, for
 * `deckhand status`, which loads no emulator.
 */
import type { Redis } from 'ioredis';

/** The Redis key holding the running sandbox's notes. */
export function sandboxNotesKey(prefix: string): string {
  return `${prefix}sandbox:notes`;
}

/** Keeps the notes in Redis for `deckhand status`; returns the function that removes them. */
export async function publishSandboxNotes(
  redis: Redis,
  prefix: string,
  notes: readonly string[],
): Promise<() => Promise<void>> {
  const key = sandboxNotesKey(prefix);
  if (notes.length === 0) return async () => {};
  await redis.set(key, JSON.stringify(notes));
  return async () => {
    await redis.del(key).catch(() => undefined);
  };
}

/** The notes a running sandbox left in Redis (for `deckhand status`). */
export async function readSandboxNotes(redis: Redis, prefix: string): Promise<string[]> {
  const raw = await redis.get(sandboxNotesKey(prefix));
  if (!raw) return [];
  try {
    const parsed = JSON.parse(raw) as unknown;
    return Array.isArray(parsed) ? parsed.filter((line): line is string => typeof line === 'string') : [];
  } catch {
    return [];
  }
}
