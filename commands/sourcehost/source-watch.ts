/**
 * Following a migration: one observation reads it with the linked account of the user who started
 * it. The queue processor (src/queue/migration-processor.ts) edits the status card while it changes,
 * and at the end announces it once where it was started; the archive link goes only to a private
 * conversation (elsewhere the announcement has an "Archive link" button whose answer is private).
 */
import { NotFoundError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { FINISHED_MIGRATION_STATES, migrationOwner } from '../../src/services/sourcehost';
import type { MigrationWatchRequest } from '../link-services';
import type { SourcehostServices } from './context';
import { archiveCard, migrationAnnouncement, migrationCard } from './source-cards';

/** One look at a followed migration. */
export interface MigrationObservation {
  state: string;
  terminal: boolean;
  /** The status card now. */
  card: DraftCard;
  /** At the end: the announcement for the conversation. */
  announcement?: DraftCard;
  /** At the end, when exported and the conversation is private: the archive link card. */
  archive?: DraftCard;
}

/** Reads a migration and builds its cards. Throws `NotFoundError` when it (or the link) is gone. */
export async function observeMigration(
  services: SourcehostServices,
  request: MigrationWatchRequest,
): Promise<MigrationObservation> {
  const linked = await services.accounts.credentials.source(request.user);
  if (!linked) throw new NotFoundError(`${request.user.name} unlinked their source-host account.`);
  const client = services.accounts.sourcehost.forToken(linked.token);
  const owner = migrationOwner(request.owner);
  const migration = await client.migrations.get(owner, request.id);
  const terminal = FINISHED_MIGRATION_STATES.has(migration.state);
  const observation: MigrationObservation = {
    state: migration.state,
    terminal,
    card: migrationCard(request.owner, migration),
  };
  if (!terminal) return observation;
  observation.announcement = migrationAnnouncement(request.owner, migration);
  if (migration.state === 'exported' && request.isPrivate) {
    const { visibility: _private, ...card } = archiveCard(
      migration.id,
      await client.migrations.archiveUrl(owner, migration.id),
    );
    observation.archive = card;
  }
  return observation;
}

/** The card shown when Deckhand stops following a migration before it ended. */
export function migrationGaveUp(request: MigrationWatchRequest, reason: string): DraftCard {
  return {
    title: `Migration ${request.id}`,
    text: `Deckhand stopped following migration ${request.id}: ${reason}.\nUse /source migration show ${request.owner} ${request.id} to see where it is.`,
    status: 'warning',
  };
}
