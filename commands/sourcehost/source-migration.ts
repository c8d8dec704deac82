/**
 * `/source migration start|list|show|repos|archive|delete-archive|unlock`: export archives of an
 * organization's or your own (`@me`) repositories, with your linked account's rights. A started
 * migration is followed on the queue until `exported` or `failed` and announced once; the archive
 * link is only ever sent privately.
 */
import { z } from 'zod';
import { commandRef } from '../../src/core/action-ref';
import { UsageError } from '../../src/core/errors';
import { tableTime } from '../../src/core/times';
import { translator } from '../../src/i18n/translate';
import { migrationOwner, SCOPES } from '../../src/services/sourcehost';
import { table } from '../format';
import { command } from './context';
import { migrationArchiveSignature, migrationId, ownerArg } from './signatures';
import { archiveCard, migrationCard, migrationState, ownerLabel } from './source-cards';
import { linkedCommand, sourceAccess } from './source-link';
import {
  archiveAvailable,
  isMissing,
  migrationOrMissing,
  noArchiveMessage,
  noMigrationWords,
  notFoundInWords,
  orMissing,
} from './source-missing';

const ENGLISH = translator('en');

const repoName = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}(\/[A-Za-z0-9._-]{1,100})?$/, ENGLISH.t('migration-repo-invalid'))
  .meta({ invalid: 'migration-repo-invalid' });

function scopesFor(value: string): readonly string[] {
  return value === '@me' ? SCOPES.userMigration : SCOPES.orgMigration;
}

/** `/source migration start <org|@me> <repo>... [--lock] [--exclude-attachments] [--exclude repositories]`. */
export const migrationStartCommand = command({
  name: 'source migration start',
  args: z.object({
    owner: ownerArg,
    repos: z
      .array(repoName)
      .min(1, ENGLISH.t('migration-repos-none'))
      .meta({ invalid: 'migration-repo-invalid' })
      .describe('opt-repos'),
    lock: z.boolean().default(false).describe('opt-lock'),
    excludeAttachments: z.boolean().default(false).describe('opt-exclude-attachments'),
    exclude: z
      .array(z.enum(['repositories']))
      .optional()
      .describe('opt-exclude'),
  }),
  positional: ['owner', 'repos'],
  examples: [
    '/source migration start toolforge-repos mytool demo --lock',
    '/source migration start @me mona/notes',
  ],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation, reply, say = ENGLISH }) {
    const { owner } = args;
    if (owner !== '@me' && args.repos.some((r) => r.includes('/'))) {
      throw UsageError.inWords((say) => ({ message: say.t('migration-owner-in-name', owner) }));
    }
    const access = await sourceAccess(services, invocation, scopesFor(args.owner), {
      ...commandRef(migrationStartCommand, args),
    });
    if ('card' in access) return access.card;
    const migration = await access.client.migrations.start(migrationOwner(args.owner), {
      repositories: args.repos,
      lockRepositories: args.lock,
      excludeAttachments: args.excludeAttachments,
      ...(args.exclude ? { exclude: args.exclude } : {}),
    });
    const handle = await reply(migrationCard(args.owner, migration, say, say.t('migration-following')));
    await services.accounts.followMigration({
      owner: args.owner,
      id: migration.id,
      user: { ...invocation.user, name: invocation.user.name },
      conversationId: invocation.conversationId,
      isPrivate: invocation.isPrivate,
      ...(handle ? { handle } : {}),
    });
    return undefined;
  },
});

/** `/source migration list <org|@me>`. */
export const migrationListCommand = linkedCommand({
  name: 'source migration list',
  args: z.object({
    owner: ownerArg,
    page: z.number().int().min(1).default(1).describe('opt-page-media-list'),
    perPage: z.number().int().min(1).max(100).default(30).describe('opt-per-page'),
  }),
  positional: ['owner'],
  examples: ['/source migration list toolforge-repos', '/source migration list @me --page 2'],
  permission: 'read',
  scopes: (args) => scopesFor(args.owner),
  async run({ args, client, say = ENGLISH }) {
    const migrations = await client.migrations.list(migrationOwner(args.owner), {
      page: args.page,
      perPage: args.perPage,
    });
    if (migrations.length === 0)
      return { text: say.t('migration-list-empty', ownerLabel(args.owner, say), args.page), status: 'info' };
    const rows = migrations.map((m) => [
      String(m.id),
      migrationState(m.state, say),
      tableTime(Date.parse(m.created_at)),
      m.repositories.map((r) => r.full_name).join(', '),
    ]);
    const header = [
      say.t('migration-column-id'),
      say.t('migration-column-state'),
      say.t('migration-column-created'),
      say.t('migration-column-repositories'),
    ];
    return {
      title: say.t('migration-list-title', ownerLabel(args.owner, say)),
      code: { text: table([header, ...rows]) },
      status: 'info',
      footer: migrations.length === args.perPage ? say.t('migration-list-more', args.page + 1) : undefined,
    };
  },
});

/** `/source migration show <org|@me> <id>`. */
export const migrationShowCommand = linkedCommand({
  name: 'source migration show',
  args: z.object({ owner: ownerArg, id: migrationId }),
  positional: ['owner', 'id'],
  examples: ['/source migration show toolforge-repos 79'],
  permission: 'read',
  scopes: (args) => scopesFor(args.owner),
  async run({ args, client, say = ENGLISH }) {
    const who = migrationOwner(args.owner);
    const migration = await migrationOrMissing(client, who, args.owner, args.id);
    // An exported migration's archive may be gone (deleted, or expired after 7 days): then no link.
    const archive = migration.state !== 'exported' || (await archiveAvailable(client, who, args.id));
    return migrationCard(args.owner, migration, say, undefined, archive);
  },
});

/** `/source migration repos <org|@me> <id>`. */
export const migrationReposCommand = linkedCommand({
  name: 'source migration repos',
  args: z.object({ owner: ownerArg, id: migrationId }),
  positional: ['owner', 'id'],
  examples: ['/source migration repos toolforge-repos 79'],
  permission: 'read',
  scopes: (args) => scopesFor(args.owner),
  async run({ args, client, say = ENGLISH }) {
    const repos = await orMissing(
      () => client.migrations.repositories(migrationOwner(args.owner), args.id),
      noMigrationWords(args.owner, args.id),
    );
    return {
      title: say.t('migration-repos-title', args.id),
      text: repos.map((r) => r.full_name).join('\n') || say.t('migration-none'),
      status: 'info',
    };
  },
});

/** `/source migration archive <org|@me> <id>`: the archive link, privately. */
export const migrationArchiveCommand = linkedCommand({
  ...migrationArchiveSignature,
  positional: ['owner', 'id'],
  examples: ['/source migration archive toolforge-repos 79'],
  permission: 'read',
  scopes: (args) => scopesFor(args.owner),
  async run({ args, client, sayPrivately = ENGLISH }) {
    const who = migrationOwner(args.owner);
    try {
      return archiveCard(args.id, await client.migrations.archiveUrl(who, args.id), sayPrivately);
    } catch (error) {
      if (!isMissing(error)) throw error;
      const migration = await migrationOrMissing(client, who, args.owner, args.id);
      throw notFoundInWords((say) => ({ message: noArchiveMessage(args.owner, migration, say) }), error);
    }
  },
});

/** `/source migration delete-archive <org|@me> <id>` (confirmed first). */
export const migrationDeleteArchiveCommand = linkedCommand({
  name: 'source migration delete-archive',
  args: z.object({ owner: ownerArg, id: migrationId }),
  positional: ['owner', 'id'],
  examples: ['/source migration delete-archive toolforge-repos 79'],
  permission: 'read',
  sideEffect: true,
  confirm: (args, _target, say = ENGLISH) =>
    say.t('migration-delete-archive-confirm', args.id, ownerLabel(args.owner, say)),
  scopes: (args) => scopesFor(args.owner),
  async run({ args, client, say = ENGLISH }) {
    const who = migrationOwner(args.owner);
    try {
      await client.migrations.deleteArchive(who, args.id);
    } catch (error) {
      if (!isMissing(error)) throw error;
      const migration = await migrationOrMissing(client, who, args.owner, args.id);
      throw notFoundInWords((say) => ({ message: noArchiveMessage(args.owner, migration, say) }), error);
    }
    return { text: say.t('migration-archive-deleted', args.id), status: 'success' };
  },
});

/** `/source migration unlock <org|@me> <id> <repo>`. */
export const migrationUnlockCommand = linkedCommand({
  name: 'source migration unlock',
  args: z.object({ owner: ownerArg, id: migrationId, repo: repoName.describe('opt-repo') }),
  positional: ['owner', 'id', 'repo'],
  examples: ['/source migration unlock toolforge-repos 79 mytool'],
  permission: 'read',
  sideEffect: true,
  scopes: (args) => scopesFor(args.owner),
  async run({ args, client, say = ENGLISH }) {
    const name = args.repo.split('/').at(-1) as string;
    const who = migrationOwner(args.owner);
    try {
      await client.migrations.unlock(who, args.id, name);
    } catch (error) {
      if (!isMissing(error)) throw error;
      // The source host says 404 both for "no such migration" and for "not locked by it".
      const migration = await migrationOrMissing(client, who, args.owner, args.id);
      const inIt = migration.repositories.some((r) => r.full_name.split('/')[1] === name);
      const repos = migration.repositories.map((r) => r.full_name).join(', ');
      throw notFoundInWords(
        (say) => ({
          message: inIt
            ? say.t('migration-not-locked', args.repo, args.id)
            : say.t('migration-not-in', args.repo, args.id, repos || say.t('migration-none')),
        }),
        error,
      );
    }
    return { text: say.t('migration-unlocked', args.repo), status: 'success' };
  },
});
