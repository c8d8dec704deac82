/**
 * Following a migration: one observation reads it with the linked account of the user who started
 * it. The queue processor (src/queue/migration-processor.ts) edits the status card while it changes,
 * and at the end announces it once where it was started; the archive link goes only to a private
 * conversation (elsewhere the announcement has an "Archive link" button whose answer is private).
 */

import { userKeyOf } from '../../src/core/change-record';
import { NotFoundError } from '../../src/core/errors';
import { pickLanguage } from '../../src/core/languages';
import type { DraftCard } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import { FINISHED_MIGRATION_STATES, migrationOwner } from '../../src/services/sourcehost';
import type { MigrationWatchRequest } from '../link-services';
import type { AppServices } from '../services';
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

const ENGLISH = translator('en');

/**
 * The language of the conversation a migration was started in (its `/language --here` setting); in
 * a private conversation, the language of the person who started it (their own setting first).
 */
async function followLanguage(
  services: Partial<Pick<AppServices, 'languages'>>,
  request: MigrationWatchRequest,
): Promise<Translator> {
  const store = services.languages;
  if (!store) return ENGLISH;
  const conversation = await store.ofConversation(request.conversationId).catch(() => undefined);
  if (!request.isPrivate) return translator(conversation);
  // The user who started it, as the command saw them (with their chat app's language, if it said one).
  const { locale } = request.user as { locale?: string };
  const user = await store.ofUser(userKeyOf(request.user)).catch(() => undefined);
  return translator(pickLanguage({ platform: locale, user, conversation }));
}

/**
 * Reads a migration and builds its cards, in the language of the conversation it was started in.
 * Throws `NotFoundError` when it (or the link) is gone.
 */
export async function observeMigration(
  services: SourcehostServices & Partial<Pick<AppServices, 'languages'>>,
  request: MigrationWatchRequest,
): Promise<MigrationObservation> {
  const linked = await services.accounts.credentials.source(request.user);
  // The reason the processor gives up with, in the follow's language.
  if (!linked)
    throw new NotFoundError((say) => ({ message: say.t('migration-watch-unlinked', request.user.name) }));
  const say = await followLanguage(services, request);
  const client = services.accounts.sourcehost.forToken(linked.token);
  const owner = migrationOwner(request.owner);
  const migration = await client.migrations.get(owner, request.id);
  const terminal = FINISHED_MIGRATION_STATES.has(migration.state);
  const observation: MigrationObservation = {
    state: migration.state,
    terminal,
    card: { ...migrationCard(request.owner, migration, say), locale: say.language },
  };
  if (!terminal) return observation;
  observation.announcement = {
    ...migrationAnnouncement(request.owner, migration, say),
    locale: say.language,
  };
  if (migration.state === 'exported' && request.isPrivate) {
    const { visibility: _private, ...card } = archiveCard(
      migration.id,
      await client.migrations.archiveUrl(owner, migration.id),
      say,
    );
    observation.archive = { ...card, locale: say.language };
  }
  return observation;
}

/**
 * The card shown when Deckhand stops following a migration before it ended, in the language its
 * cards were in (see {@link followLanguage}); `reason` says why in that language.
 */
export async function migrationGaveUp(
  services: Partial<Pick<AppServices, 'languages'>>,
  request: MigrationWatchRequest,
  reason: (say: Translator) => string,
): Promise<DraftCard> {
  const say = await followLanguage(services, request);
  return {
    title: say.t('migration-title', request.id),
    text: say.t('migration-gave-up', request.id, reason(say), request.owner),
    status: 'warning',
    locale: say.language,
  };
}
