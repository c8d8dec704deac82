/**
 * A migration Deckhand stops following is said in the language its cards were in: the
 * conversation's, or in a private conversation the person's, with the reason in the same language.
 */
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { migrationGaveUp } from '../../commands/sourcehost/source-watch';
import type { MessageHandle } from '../../src/core/command';
import { NotFoundError } from '../../src/core/errors';
import type { LanguageStore } from '../../src/core/languages';
import type { DraftCard } from '../../src/core/reply';
import { t } from '../../src/i18n/translate';
import { silentLogger } from '../../src/log';
import { createMigrationProcessor, type MigrationJobData } from '../../src/queue/migration-processor';

const handle: MessageHandle = { platform: 'slack', conversationId: 'slack:T1:C1', ref: { ts: '1' } };

const data: MigrationJobData = {
  owner: 'toolforge-repos',
  id: 7,
  user: { platform: 'slack', workspace: 'T1', id: 'UMONA', name: 'mona' },
  conversationId: 'slack:T1:C1',
  isPrivate: false,
  handle,
  startedAt: Date.now(),
  attempt: 0,
  errors: 0,
};

/** A language store with one conversation setting and one person's. */
function languages(conversation: string | undefined, user: string | undefined): LanguageStore {
  return {
    ofUser: async () => user,
    ofConversation: async () => conversation,
    setUser: async () => {},
    setConversation: async () => {},
  };
}

/** Runs one look that finds the follow gone, and returns the card it left. */
async function goneCard(store: LanguageStore, request: MigrationJobData): Promise<DraftCard | undefined> {
  let edited: DraftCard | undefined;
  const processor = createMigrationProcessor({
    observe: async () => {
      throw new NotFoundError((say) => ({ message: say.t('migration-watch-unlinked', 'mona') }));
    },
    gaveUp: (job, reason) => migrationGaveUp({ languages: store }, job, reason),
    cards: {
      post: async () => handle,
      update: async (_handle, card) => {
        edited = card;
      },
    },
    redis: {} as Redis,
    prefix: 'test:',
    logger: silentLogger,
    basePollMs: 1000,
    maxPollMs: 1000,
    maxAgeMs: 3_600_000,
  });
  const result = await processor({ data: request, attemptsStarted: 1 } as Job<MigrationJobData>, 'token');
  expect(result).toBe('gone');
  return edited;
}

describe('a migration given up', () => {
  it('is said in the conversation’s language, its reason too', async () => {
    const card = await goneCard(languages('de', undefined), data);
    expect(card?.locale).toBe('de');
    expect(card?.text).toContain(
      'Deckhand verfolgt Migration 7 nicht mehr: mona hat die Verknüpfung mit dem Code-Hosting-Konto aufgehoben.\n',
    );
  });

  it('in a private conversation, in the person’s own language', async () => {
    const card = await goneCard(languages(undefined, 'he'), { ...data, isPrivate: true });
    expect(card?.locale).toBe('he');
    expect(card?.text).toContain(
      t('he', 'migration-gave-up', 7, t('he', 'migration-watch-unlinked', 'mona'), 'toolforge-repos'),
    );
  });

  it('in English where nothing else is set', async () => {
    const card = await goneCard(languages(undefined, undefined), data);
    expect(card?.text).toContain(
      'Deckhand stopped following migration 7: mona unlinked their source-host account.\n',
    );
  });
});
