/**
 * The sandbox's start-up notes (sandbox-notes.ts) and its tool platform emulator's address, kept in
 * Redis while the process runs, for `deckhand status`, which loads no emulator.
 */
import type { Redis } from 'ioredis';

/** The Redis key holding the running sandbox's notes. */
export function sandboxNotesKey(prefix: string): string {
  return `${prefix}sandbox:notes`;
}

/** The Redis key holding the running tool platform emulator's (external API) address. */
function sandboxToolhostKey(prefix: string): string {
  return `${prefix}sandbox:toolhost-url`;
}

/**
 * Keeps the notes, and the address of the tool platform emulator when one runs (`toolhostUrl`), in
 * Redis for `deckhand status`; returns the function that removes them.
 */
export async function publishSandboxNotes(
  redis: Redis,
  prefix: string,
  notes: readonly string[],
  toolhostUrl?: string,
): Promise<() => Promise<void>> {
  const keys = [sandboxNotesKey(prefix), sandboxToolhostKey(prefix)];
  if (notes.length === 0 && !toolhostUrl) return async () => {};
  if (notes.length > 0) await redis.set(sandboxNotesKey(prefix), JSON.stringify(notes));
  if (toolhostUrl) await redis.set(sandboxToolhostKey(prefix), toolhostUrl);
  return async () => {
    await redis.del(...keys).catch(() => undefined);
  };
}

/** The address of the running sandbox's tool platform emulator, if one runs. */
export async function readSandboxToolhost(redis: Redis, prefix: string): Promise<string | undefined> {
  return (await redis.get(sandboxToolhostKey(prefix))) ?? undefined;
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
