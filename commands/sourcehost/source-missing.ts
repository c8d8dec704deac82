/**
 * The source host answers a bare `404 Not Found` for many different things (no such migration, an
 * archive deleted or expired, a repository not locked, no import; also "not yours to see"). Each
 * command says which one it meant, in Deckhand's words.
 */
import { NotFoundError, UpstreamError } from '../../src/core/errors';
import type { Migration, MigrationOwner, SourcehostClient } from '../../src/services/sourcehost';
import { ownerLabel } from './source-cards';

/** True for the source host's "Not Found". */
export function isMissing(error: unknown): boolean {
  return error instanceof NotFoundError || (error instanceof UpstreamError && error.status === 404);
}

/** Runs `work`; the source host's 404 becomes `message` (with `hint`). */
export async function orMissing<T>(work: () => Promise<T>, message: string, hint?: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isMissing(error)) throw new NotFoundError(message, hint, { cause: error });
    throw error;
  }
}

/** The migration, or a message saying there is none the user can see. */
export function migrationOrMissing(
  client: SourcehostClient,
  owner: MigrationOwner,
  label: string,
  id: number,
): Promise<Migration> {
  return orMissing(
    () => client.migrations.get(owner, id),
    `There is no migration ${id} of ${ownerLabel(label)} that your account can see.`,
    `List them with /source migration list ${label}.`,
  );
}

/**
 * Whether an exported migration's archive can still be downloaded: the source host deletes it
 * after 7 days or when asked (`DELETE …/archive`), and then answers its address with 404.
 */
export async function archiveAvailable(
  client: SourcehostClient,
  owner: MigrationOwner,
  id: number,
): Promise<boolean> {
  try {
    await client.migrations.archiveUrl(owner, id);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** Why an archive cannot be had, from the migration's state. */
export function noArchiveMessage(label: string, migration: Migration): string {
  const what = `Migration ${migration.id} of ${ownerLabel(label)}`;
  if (migration.state === 'exported') {
    return `${what} has no archive any more: it was deleted (/source migration delete-archive) or expired (archives are kept 7 days).`;
  }
  return `${what} has no archive: it is ${migration.state}${migration.state === 'failed' ? '' : ', not exported yet'}.`;
}
