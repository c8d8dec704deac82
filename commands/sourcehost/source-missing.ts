/**
 * The source host answers a bare `404 Not Found` for many different things (no such migration, an
 * archive deleted or expired, a repository not locked, no import; also "not yours to see"). Each
 * command says which one it meant, in Deckhand's words (the reader's language).
 */
import { type DeckhandError, NotFoundError, UpstreamError } from '../../src/core/errors';
import type { Translator } from '../../src/i18n/translate';
import type { Migration, MigrationOwner, SourcehostClient } from '../../src/services/sourcehost';
import { migrationState, ownerLabel } from './source-cards';

/** What a refusal says, in a reader's language. */
export type Words = NonNullable<DeckhandError['words']>;

/** True for the source host's "Not Found". */
export function isMissing(error: unknown): boolean {
  return error instanceof NotFoundError || (error instanceof UpstreamError && error.status === 404);
}

/** A {@link NotFoundError} said in the catalog's words (English for logs and the audit trail). */
export function notFoundInWords(words: Words, cause?: unknown): NotFoundError {
  return new NotFoundError(words, undefined, cause === undefined ? undefined : { cause });
}

/** Runs `work`; the source host's 404 becomes a {@link NotFoundError} saying `words`. */
export async function orMissing<T>(work: () => Promise<T>, words: Words): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isMissing(error)) throw notFoundInWords(words, error);
    throw error;
  }
}

/** "There is no migration … that your account can see", with how to list them. */
export function noMigrationWords(label: string, id: number): Words {
  return (say) => ({
    message: say.t('migration-not-found', id, ownerLabel(label, say)),
    hint: say.t('migration-list-hint', label),
  });
}

/** The migration, or a message saying there is none the user can see. */
export function migrationOrMissing(
  client: SourcehostClient,
  owner: MigrationOwner,
  label: string,
  id: number,
): Promise<Migration> {
  return orMissing(() => client.migrations.get(owner, id), noMigrationWords(label, id));
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
export function noArchiveMessage(label: string, migration: Migration, say: Translator): string {
  const who = ownerLabel(label, say);
  if (migration.state === 'exported') return say.t('migration-archive-expired', migration.id, who);
  if (migration.state === 'failed') return say.t('migration-no-archive-failed', migration.id, who);
  return say.t('migration-no-archive-yet', migration.id, who, migrationState(migration.state, say));
}
