/**
 * Migrations: export archives of an organization's or the authenticated user's repositories. Every
 * operation but start is a preview and sends the wyandotte preview `Accept` type (the seed requires
 * it); start sends the v3 type.
 */
import { UpstreamError } from '../../core/errors';
import { enc } from './account';
import {
  type Migration,
  type MigrationOwner,
  MigrationSchema,
  type StartMigrationInput,
} from './migrations-schemas';
import { type Repository, RepositorySchema } from './schemas';
import {
  ACCEPT_MIGRATIONS_PREVIEW,
  ACCEPT_V3,
  type SourcehostAuth,
  type SourcehostTransport,
} from './transport';

/** Page options of list operations. */
export interface PageOptions {
  perPage?: number;
  page?: number;
}

function base(owner: MigrationOwner): { path: string; route: string } {
  return owner.kind === 'org'
    ? { path: `/orgs/${enc(owner.org)}/migrations`, route: '/orgs/{org}/migrations' }
    : { path: '/user/migrations', route: '/user/migrations' };
}

/** Migrations of one owner, as one account. */
export class MigrationsApi {
  constructor(
    private readonly transport: SourcehostTransport,
    private readonly auth: SourcehostAuth,
  ) {}

  /** The owner's migrations, most recent first (pages of `per_page`). */
  list(owner: MigrationOwner, options: PageOptions = {}): Promise<Migration[]> {
    const { path, route } = base(owner);
    return this.transport.list(path, MigrationSchema, {
      auth: this.auth,
      accept: ACCEPT_MIGRATIONS_PREVIEW,
      route,
      ...(options.perPage ? { perPage: options.perPage } : {}),
      ...(options.page ? { page: options.page } : {}),
    });
  }

  /** Starts a migration (201). */
  start(owner: MigrationOwner, input: StartMigrationInput): Promise<Migration> {
    const { path, route } = base(owner);
    const body: Record<string, unknown> = { repositories: input.repositories };
    if (input.lockRepositories !== undefined) body.lock_repositories = input.lockRepositories;
    if (input.excludeAttachments !== undefined) body.exclude_attachments = input.excludeAttachments;
    if (input.exclude?.length) body.exclude = input.exclude;
    return this.transport.json('POST', path, MigrationSchema, {
      auth: this.auth,
      accept: ACCEPT_V3,
      route,
      body,
    });
  }

  /** One migration's status. */
  get(owner: MigrationOwner, id: number): Promise<Migration> {
    const { path, route } = base(owner);
    return this.transport.json('GET', `${path}/${id}`, MigrationSchema, {
      auth: this.auth,
      accept: ACCEPT_MIGRATIONS_PREVIEW,
      route: `${route}/{migration_id}`,
    });
  }

  /** The repositories of a migration. */
  repositories(owner: MigrationOwner, id: number, options: PageOptions = {}): Promise<Repository[]> {
    const { path, route } = base(owner);
    return this.transport.list(`${path}/${id}/repositories`, RepositorySchema, {
      auth: this.auth,
      accept: ACCEPT_MIGRATIONS_PREVIEW,
      route: `${route}/{migration_id}/repositories`,
      ...(options.perPage ? { perPage: options.perPage } : {}),
      ...(options.page ? { page: options.page } : {}),
    });
  }

  /**
   * The download address of an exported migration's archive: the `Location` of the 302 the archive
   * operation answers (a short-lived signed address). Secret: hand it out privately only.
   */
  async archiveUrl(owner: MigrationOwner, id: number): Promise<string> {
    const { path, route } = base(owner);
    const response = await this.transport.empty('GET', `${path}/${id}/archive`, {
      auth: this.auth,
      accept: ACCEPT_MIGRATIONS_PREVIEW,
      route: `${route}/{migration_id}/archive`,
    });
    const location = response.headers.location;
    const url = Array.isArray(location) ? location[0] : location;
    if (response.status !== 302 || !url) {
      const { status } = response;
      throw new UpstreamError('sourcehost', 502, (say) => ({
        message: say.t('sourcehost-api-no-archive-address', status),
      }));
    }
    return url;
  }

  /** Deletes an archive (the migration itself stays listed). */
  async deleteArchive(owner: MigrationOwner, id: number): Promise<void> {
    const { path, route } = base(owner);
    await this.transport.empty('DELETE', `${path}/${id}/archive`, {
      auth: this.auth,
      accept: ACCEPT_MIGRATIONS_PREVIEW,
      route: `${route}/{migration_id}/archive`,
    });
  }

  /** Unlocks a repository locked by a migration (404 when it is not locked). */
  async unlock(owner: MigrationOwner, id: number, repo: string): Promise<void> {
    const { path, route } = base(owner);
    await this.transport.empty('DELETE', `${path}/${id}/repos/${enc(repo)}/lock`, {
      auth: this.auth,
      accept: ACCEPT_MIGRATIONS_PREVIEW,
      route: `${route}/{migration_id}/repos/{repo_name}/lock`,
    });
  }
}

/** Parses `@me` or an organization name. */
export function migrationOwner(value: string): MigrationOwner {
  return value === '@me' ? { kind: 'user' } : { kind: 'org', org: value };
}
