import { actionTo } from '../../src/core/action-ref';
import type { CardStatus, DraftCard } from '../../src/core/reply';
import { type MessageKey, type Translator, translator } from '../../src/i18n/translate';
import type { Import, Migration } from '../../src/services/sourcehost';
import { migrationArchiveSignature } from './signatures';

const ENGLISH = translator('en');

const MIGRATION_STATUS: Record<string, CardStatus> = {
  pending: 'progress',
  exporting: 'progress',
  exported: 'success',
  failed: 'danger',
};

/** The card's first line by state (`$1` the migration, `$2` its owner). */
const MIGRATION_WORDS: Record<string, MessageKey> = {
  pending: 'migration-state-pending',
  exporting: 'migration-state-exporting',
  exported: 'migration-state-exported',
  failed: 'migration-state-failed',
};

/** A migration's state as a word (`exported`), another as the source host says it. */
const STATE_WORD: Record<string, MessageKey> = {
  pending: 'migration-status-pending',
  exporting: 'migration-status-exporting',
  exported: 'migration-status-exported',
  failed: 'migration-status-failed',
};

/** A migration's state in words: `pending`, `exporting`, `exported`, `failed`. */
export function migrationState(state: string, say: Translator): string {
  const key = STATE_WORD[state];
  return key ? say.t(key) : state;
}

/** `@me` or `org`, for texts. */
export function ownerLabel(owner: string, say: Translator): string {
  return owner === '@me' ? say.t('migration-owner-me') : owner;
}

/**
 * The status card of a migration (never with the archive link: that is sent privately). `archive`
 * false: the migration is exported but its archive was deleted or expired, so no Archive link.
 */
export function migrationCard(
  owner: string,
  migration: Migration,
  say: Translator,
  note?: string,
  archive = true,
): DraftCard {
  const repos = migration.repositories.map((r) => r.full_name);
  const exported = migration.state === 'exported' && archive;
  const who = ownerLabel(owner, say);
  const key = MIGRATION_WORDS[migration.state];
  const headline =
    migration.state === 'exported' && !archive
      ? say.t('migration-state-archive-gone', migration.id, who)
      : key
        ? say.t(key, migration.id, who)
        : say.t('migration-state-other', migration.id, who, migration.state);
  const lines = [headline];
  if (note) lines.push(note);
  return {
    title: say.t('migration-title', migration.id),
    text: lines.join('\n'),
    status: MIGRATION_STATUS[migration.state] ?? 'info',
    fields: [
      { label: say.t('migration-field-state'), value: migrationState(migration.state, say), inline: true },
      { label: say.t('migration-field-repositories'), value: repos.join(', ') || '—', inline: true },
      {
        label: say.t('migration-field-options'),
        value:
          [
            migration.lock_repositories && say.t('migration-option-locked'),
            migration.exclude_attachments && say.t('migration-option-no-attachments'),
            ...(migration.exclude ?? []).map((e) => say.t('migration-option-exclude', e)),
          ]
            .filter(Boolean)
            .join(', ') || say.t('migration-none'),
        inline: true,
      },
    ],
    ...(exported
      ? {
          actions: [
            actionTo(
              migrationArchiveSignature,
              { owner, id: migration.id },
              { label: say.t('migration-archive-button') },
            ),
          ],
        }
      : {}),
    footer: say.t('migration-footer-created', migration.id, migration.guid),
    footerTime: { at: Date.parse(migration.created_at) },
  };
}

/** The announcement of a finished migration (once), in the conversation where it was started. */
export function migrationAnnouncement(owner: string, migration: Migration, say: Translator): DraftCard {
  const exported = migration.state === 'exported';
  const who = ownerLabel(owner, say);
  return {
    title: exported
      ? say.t('migration-announce-exported', migration.id)
      : migration.state === 'failed'
        ? say.t('migration-announce-failed', migration.id)
        : say.t('migration-announce-other', migration.id, migration.state),
    text: exported
      ? say.t('migration-export-ready', who, migration.repositories.map((r) => r.full_name).join(', '))
      : say.t('migration-export-failed', who),
    status: exported ? 'success' : 'danger',
    ...(exported
      ? {
          actions: [
            actionTo(
              migrationArchiveSignature,
              { owner, id: migration.id },
              { label: say.t('migration-archive-button') },
            ),
          ],
        }
      : {}),
    footer: say.t('migration-footer', migration.id),
  };
}

/** The private card with an archive link (in its reader's language). */
export function archiveCard(migrationId: number, url: string, say: Translator): DraftCard {
  return {
    title: say.t('migration-archive-title', migrationId),
    text: say.t('migration-archive-text'),
    links: [{ label: say.t('migration-archive-download'), url }],
    status: 'success',
    visibility: 'private',
  };
}

const IMPORT_PROBLEMS: Record<string, MessageKey> = {
  auth_failed: 'import-problem-auth-failed',
  detection_needs_auth: 'import-problem-detection-needs-auth',
  error: 'import-problem-error',
  detection_found_nothing: 'import-problem-detection-found-nothing',
  detection_found_multiple: 'import-problem-detection-found-multiple',
};

/** The status card of a source import. */
export function importCard(repo: string, item: Import, say: Translator): DraftCard {
  const done = item.status === 'complete';
  const problemKey = IMPORT_PROBLEMS[item.status];
  const problem = problemKey ? say.t(problemKey) : undefined;
  const progress =
    item.status === 'importing'
      ? say.t('import-progress-importing', item.import_percent ?? 0, item.commit_count ?? 0)
      : item.status === 'pushing'
        ? say.t('import-progress-pushing', item.push_percent ?? 0)
        : (item.status_text ?? item.status);
  return {
    title: say.t('import-title', repo),
    text: [say.t('import-from', item.vcs ?? say.t('import-vcs-unknown'), item.vcs_url, item.status), problem]
      .filter(Boolean)
      .join('\n'),
    status: done ? 'success' : problem ? 'danger' : 'progress',
    fields: [
      { label: say.t('import-field-progress'), value: progress ?? item.status, inline: true },
      { label: say.t('import-field-authors'), value: String(item.authors_count ?? 0), inline: true },
      {
        label: say.t('import-field-large-files'),
        value: item.has_large_files
          ? say.t(
              'import-large-files-value',
              item.large_files_count ?? 0,
              item.large_files_size ?? 0,
              lfsChoice(item.use_lfs, say),
            )
          : say.t('import-none'),
        inline: true,
      },
      ...(item.failed_step
        ? [
            {
              label: say.t('import-field-failed-step'),
              value: `${item.failed_step}: ${item.error_message ?? ''}`,
            },
          ]
        : []),
    ],
  };
}

/**
 * The repository's Git LFS choice in words. The REST reference documents `use_lfs` as a boolean
 * while its prose lists `opt_in`, `opt_out` and `undecided`; `false` is what an import that was
 * never asked answers, so it reads as not chosen yet. In English unless `say` is given.
 */
export function lfsChoice(useLfs: boolean | string | undefined, say: Translator = ENGLISH): string {
  if (useLfs === true || useLfs === 'opt_in') return say.t('import-lfs-opt-in');
  if (useLfs === 'opt_out') return say.t('import-lfs-opt-out');
  return say.t('import-lfs-undecided');
}
