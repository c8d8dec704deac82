import { actionTo } from '../../src/core/action-ref';
import type { CardStatus, DraftCard } from '../../src/core/reply';
import type { Import, Migration } from '../../src/services/sourcehost';
import { migrationArchiveSignature } from './signatures';

const MIGRATION_STATUS: Record<string, CardStatus> = {
  pending: 'progress',
  exporting: 'progress',
  exported: 'success',
  failed: 'danger',
};

const MIGRATION_WORDS: Record<string, string> = {
  pending: 'has not started yet',
  exporting: 'is exporting',
  exported: 'is exported: the archive can be downloaded (for 7 days)',
  failed: 'failed',
};

/** `@me` or `org`, for texts. */
export function ownerLabel(owner: string): string {
  return owner === '@me' ? 'your account' : owner;
}

/**
 * The status card of a migration (never with the archive link: that is sent privately). `archive`
 * false: the migration is exported but its archive was deleted or expired, so no Archive link.
 */
export function migrationCard(owner: string, migration: Migration, note?: string, archive = true): DraftCard {
  const repos = migration.repositories.map((r) => r.full_name);
  const exported = migration.state === 'exported' && archive;
  const words =
    migration.state === 'exported' && !archive
      ? 'is exported, but its archive is gone: it was deleted (/source migration delete-archive) or expired after 7 days'
      : (MIGRATION_WORDS[migration.state] ?? `is ${migration.state}`);
  const lines = [`Migration ${migration.id} of ${ownerLabel(owner)} ${words}.`];
  if (note) lines.push(note);
  return {
    title: `Migration ${migration.id}`,
    text: lines.join('\n'),
    status: MIGRATION_STATUS[migration.state] ?? 'info',
    fields: [
      { label: 'State', value: migration.state, inline: true },
      { label: 'Repositories', value: repos.join(', ') || '—', inline: true },
      {
        label: 'Options',
        value:
          [
            migration.lock_repositories && 'locked',
            migration.exclude_attachments && 'no attachments',
            ...(migration.exclude ?? []).map((e) => `exclude ${e}`),
          ]
            .filter(Boolean)
            .join(', ') || 'none',
        inline: true,
      },
    ],
    ...(exported
      ? {
          actions: [
            actionTo(migrationArchiveSignature, { owner, id: migration.id }, { label: 'Archive link' }),
          ],
        }
      : {}),
    footer: `migration ${migration.id} · ${migration.guid} · created`,
    footerTime: { at: Date.parse(migration.created_at) },
  };
}

/** The announcement of a finished migration (once), in the conversation where it was started. */
export function migrationAnnouncement(owner: string, migration: Migration): DraftCard {
  const exported = migration.state === 'exported';
  return {
    title: `Migration ${migration.id} ${migration.state}`,
    text: exported
      ? `The export of ${ownerLabel(owner)} (${migration.repositories.map((r) => r.full_name).join(', ')}) is ready. The archive link is sent only privately: press Archive link.`
      : `The export of ${ownerLabel(owner)} failed. Start it again with /source migration start.`,
    status: exported ? 'success' : 'danger',
    ...(exported
      ? {
          actions: [
            actionTo(migrationArchiveSignature, { owner, id: migration.id }, { label: 'Archive link' }),
          ],
        }
      : {}),
    footer: `migration ${migration.id}`,
  };
}

/** The private card with an archive link. */
export function archiveCard(migrationId: number, url: string): DraftCard {
  return {
    title: `Archive of migration ${migrationId}`,
    text: 'This download link is for you only and expires soon; the archive itself is deleted after 7 days.',
    links: [{ label: 'Download the archive (tar.gz)', url }],
    status: 'success',
    visibility: 'private',
  };
}

const IMPORT_PROBLEMS: Record<string, string> = {
  auth_failed: 'The source needs credentials: update them on the source host, then restart the import.',
  detection_needs_auth: 'Detecting the source needs credentials: give them on the source host.',
  error: 'The import failed; contact the source host support with the failed step.',
  detection_found_nothing:
    'Nothing to import was found at that URL: cancel and start again with the right URL.',
  detection_found_multiple: 'Several projects were found: choose one on the source host.',
};

/** The status card of a source import. */
export function importCard(repo: string, item: Import): DraftCard {
  const done = item.status === 'complete';
  const problem = IMPORT_PROBLEMS[item.status];
  const progress =
    item.status === 'importing'
      ? `${item.import_percent ?? 0}% (${item.commit_count ?? 0} commits)`
      : item.status === 'pushing'
        ? `pushing ${item.push_percent ?? 0}%`
        : (item.status_text ?? item.status);
  return {
    title: `Import into ${repo}`,
    text: [`${item.vcs ?? 'unknown VCS'} from ${item.vcs_url}: ${item.status}.`, problem]
      .filter(Boolean)
      .join('\n'),
    status: done ? 'success' : problem ? 'danger' : 'progress',
    fields: [
      { label: 'Progress', value: progress ?? item.status, inline: true },
      { label: 'Commit authors', value: String(item.authors_count ?? 0), inline: true },
      {
        label: 'Large files',
        value: item.has_large_files
          ? `${item.large_files_count} (${item.large_files_size} bytes); ${lfsChoice(item.use_lfs)}`
          : 'none',
        inline: true,
      },
      ...(item.failed_step
        ? [{ label: 'Failed step', value: `${item.failed_step}: ${item.error_message ?? ''}` }]
        : []),
    ],
  };
}

/**
 * The repository's Git LFS choice in words. The REST reference documents `use_lfs` as a boolean
 * while its prose lists `opt_in`, `opt_out` and `undecided`; `false` is what an import that was
 * never asked answers, so it reads as not chosen yet.
 */
export function lfsChoice(useLfs: boolean | string | undefined): string {
  if (useLfs === true || useLfs === 'opt_in') return 'kept with Git LFS';
  if (useLfs === 'opt_out') return 'removed from the history';
  return 'Git LFS not chosen yet (see /source import lfs)';
}
