/**
 * `/source migration start|list|show|repos|archive|delete-archive|unlock`: export archives of an
 * organization's or your own (`@me`) repositories, with your linked account's rights. A started
 * migration is followed on the queue until `exported` or `failed` and announced once; the archive
 * link is only ever sent privately.
 */
import { z } from 'zod';
import { commandRef } from '../../src/core/action-ref';
import { NotFoundError, UsageError } from '../../src/core/errors';
import { tableTime } from '../../src/core/times';
import { migrationOwner, SCOPES } from '../../src/services/sourcehost';
import { table } from '../format';
import { command } from './context';
import { migrationArchiveSignature, migrationId, ownerArg } from './signatures';
import { archiveCard, migrationCard, ownerLabel } from './source-cards';
import { linkedCommand, sourceAccess } from './source-link';
import {
  archiveAvailable,
  isMissing,
  migrationOrMissing,
  noArchiveMessage,
  orMissing,
} from './source-missing';

const repoName = z
  .string()
  .regex(
    /^[A-Za-z0-9._-]{1,100}(\/[A-Za-z0-9._-]{1,100})?$/,
    'must be a repository name (or owner/name for @me)',
  );

function scopesFor(value: string): readonly string[] {
  return value === '@me' ? SCOPES.userMigration : SCOPES.orgMigration;
}

/** `/source migration start <org|@me> <repo>... [--lock] [--exclude-attachments] [--exclude repositories]`. */
export const migrationStartCommand = command({
  name: 'source migration start',
  args: z.object({
    owner: ownerArg,
    repos: z.array(repoName).min(1, 'name at least one repository').describe('opt-repos'),
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
  async run({ args, services, invocation, reply }) {
    if (args.owner !== '@me' && args.repos.some((r) => r.includes('/'))) {
      throw new UsageError(
        `Name the repositories of ${args.owner} without the owner (e.g. mytool, not ${args.owner}/mytool).`,
      );
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
    const handle = await reply(
      migrationCard(args.owner, migration, 'Deckhand follows it and says when it is done.'),
    );
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
  async run({ args, client }) {
    const migrations = await client.migrations.list(migrationOwner(args.owner), {
      page: args.page,
      perPage: args.perPage,
    });
    if (migrations.length === 0)
      return { text: `No migrations of ${ownerLabel(args.owner)} on page ${args.page}.`, status: 'info' };
    const rows = migrations.map((m) => [
      String(m.id),
      m.state,
      tableTime(Date.parse(m.created_at)),
      m.repositories.map((r) => r.full_name).join(', '),
    ]);
    return {
      title: `Migrations of ${ownerLabel(args.owner)}`,
      code: { text: table([['ID', 'STATE', 'CREATED (UTC)', 'REPOSITORIES'], ...rows]) },
      status: 'info',
      footer: migrations.length === args.perPage ? `More may follow: --page ${args.page + 1}` : undefined,
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
  async run({ args, client }) {
    const who = migrationOwner(args.owner);
    const migration = await migrationOrMissing(client, who, args.owner, args.id);
    // An exported migration's archive may be gone (deleted, or expired after 7 days): then no link.
    const archive = migration.state !== 'exported' || (await archiveAvailable(client, who, args.id));
    return migrationCard(args.owner, migration, undefined, archive);
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
  async run({ args, client }) {
    const repos = await orMissing(
      () => client.migrations.repositories(migrationOwner(args.owner), args.id),
      `There is no migration ${args.id} of ${ownerLabel(args.owner)} that your account can see.`,
      `List them with /source migration list ${args.owner}.`,
    );
    return {
      title: `Repositories of migration ${args.id}`,
      text: repos.map((r) => r.full_name).join('\n') || 'none',
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
  async run({ args, client }) {
    const who = migrationOwner(args.owner);
    try {
      return archiveCard(args.id, await client.migrations.archiveUrl(who, args.id));
    } catch (error) {
      if (!isMissing(error)) throw error;
      const migration = await migrationOrMissing(client, who, args.owner, args.id);
      throw new NotFoundError(noArchiveMessage(args.owner, migration), undefined, { cause: error });
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
  confirm: (args) =>
    `Delete the archive of migration ${args.id} of ${ownerLabel(args.owner)}? It cannot be downloaded afterwards.`,
  scopes: (args) => scopesFor(args.owner),
  async run({ args, client }) {
    const who = migrationOwner(args.owner);
    try {
      await client.migrations.deleteArchive(who, args.id);
    } catch (error) {
      if (!isMissing(error)) throw error;
      const migration = await migrationOrMissing(client, who, args.owner, args.id);
      throw new NotFoundError(noArchiveMessage(args.owner, migration), undefined, { cause: error });
    }
    return { text: `Deleted the archive of migration ${args.id}.`, status: 'success' };
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
  async run({ args, client }) {
    const name = args.repo.split('/').at(-1) as string;
    const who = migrationOwner(args.owner);
    try {
      await client.migrations.unlock(who, args.id, name);
    } catch (error) {
      if (!isMissing(error)) throw error;
      // The source host says 404 both for "no such migration" and for "not locked by it".
      const migration = await migrationOrMissing(client, who, args.owner, args.id);
      const inIt = migration.repositories.some((r) => r.full_name.split('/')[1] === name);
      throw new NotFoundError(
        inIt
          ? `${args.repo} is not locked by migration ${args.id} (already unlocked).`
          : `${args.repo} is not one of the repositories of migration ${args.id}: ${migration.repositories.map((r) => r.full_name).join(', ') || 'none'}.`,
        undefined,
        { cause: error },
      );
    }
    return { text: `Unlocked ${args.repo}.`, status: 'success' };
  },
});
