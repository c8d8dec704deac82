/**
 * Emulated migrations, for an organization (its owners only) and for the authenticated user. Every
 * operation but start requires the wyandotte preview `Accept` type (415 otherwise, as the preview
 * did). Lifecycle: `pending` → `exporting` (one step) → `exported` (two more steps), or `failed` when
 * a repository name contains `fail`. `lock_repositories` locks the repositories at start. An exported
 * migration's archive is a 302 to a signed download address on the web host.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { type ApiEnv, requireAccount, requireScope } from './api';
import { basicError, migrationJson, paginate, repoJson, validationError } from './responses';
import type { SandboxMigration, SourcehostState } from './state';

const PREVIEW = 'application/vnd.github.wyandotte-preview+json';

function previewRequired(c: Context): Response | undefined {
  if ((c.req.header('accept') ?? '').includes(PREVIEW)) return undefined;
  return c.json(
    {
      message:
        "If you would like to help us test the Migrations API during its preview period, you must specify a custom media type in the 'Accept' header. Please see the docs for full details.",
      documentation_url: 'https://docs.github.com/rest/migrations',
    },
    415,
  );
}

/** Moves a migration through its lifecycle on the sandbox's timers. */
function run(state: SourcehostState, migration: SandboxMigration): void {
  const step = (next: string, after: number, then?: () => void) =>
    state.timers.after(after, () => {
      migration.state = next;
      migration.updatedAt = new Date().toISOString();
      if (next === 'exported') migration.archive = randomBytes(16).toString('hex');
      then?.();
    });
  const fails = migration.repositories.some((name) => name.includes('fail'));
  step('exporting', state.stepMs, () => step(fails ? 'failed' : 'exported', state.stepMs * 2));
}

/** The migration routes under `/orgs/{org}/migrations` and `/user/migrations`. */
export function createMigrationRoutes(state: SourcehostState): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  /** Resolves the owner of a route: the organization (for its owners) or the user. */
  const owner = (c: Context<ApiEnv>, org: string | undefined) => {
    const account = requireAccount(c);
    if (account instanceof Response) return account;
    if (org === undefined)
      return requireScope(c, 'repo') ?? { kind: 'user' as const, owner: account.login, login: account.login };
    if (!state.accounts.has(org) || !state.ownsOrg(org, account.login))
      return basicError(c, 404, 'Not Found');
    return (
      requireScope(c, 'admin:org') ??
      requireScope(c, 'repo') ?? { kind: 'org' as const, owner: org, login: account.login }
    );
  };

  const find = (c: Context<ApiEnv>, org: string | undefined) => {
    const who = owner(c, org);
    if (who instanceof Response) return who;
    const migration = state.migrations.get(Number(c.req.param('id')));
    if (!migration || migration.owner !== who.owner || migration.kind !== who.kind)
      return basicError(c, 404, 'Not Found');
    return migration;
  };

  for (const [prefix, orgOf] of [
    ['/orgs/:org/migrations', (c: Context<ApiEnv>) => c.req.param('org')],
    ['/user/migrations', () => undefined],
  ] as const) {
    app.get(prefix, (c) => {
      const refused = previewRequired(c);
      if (refused) return refused;
      const who = owner(c, orgOf(c));
      if (who instanceof Response) return who;
      const excludeRepos = c.req.queries('exclude[]')?.includes('repositories') ?? false;
      const all = [...state.migrations.values()]
        .filter((m) => m.owner === who.owner && m.kind === who.kind)
        .sort((a, b) => b.id - a.id);
      const paged = paginate(c, all);
      if ('error' in paged) return paged.error;
      return c.json(paged.page.map((m) => migrationJson(state, m, !excludeRepos)));
    });

    app.post(prefix, async (c) => {
      const who = owner(c, orgOf(c));
      if (who instanceof Response) return who;
      const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined;
      const repositories = body?.repositories;
      if (!Array.isArray(repositories) || repositories.some((r) => typeof r !== 'string')) {
        return validationError(c, { resource: 'Migration', field: 'repositories', code: 'missing_field' });
      }
      if (repositories.length === 0) {
        return validationError(c, {
          resource: 'Migration',
          code: 'custom',
          field: 'repositories',
          message: 'At least one repository is required.',
        });
      }
      const names: string[] = [];
      for (const given of repositories as string[]) {
        const full =
          who.kind === 'org'
            ? `${who.owner}/${given}`
            : given.includes('/')
              ? given
              : `${who.owner}/${given}`;
        const repo = state.repos.get(full);
        if (!repo || !state.permission(repo, who.login).admin) {
          return validationError(c, {
            resource: 'Migration',
            code: 'custom',
            field: 'repositories',
            message: `${given} is not a repository you can migrate.`,
          });
        }
        names.push(full);
      }
      const now = new Date().toISOString();
      const migration: SandboxMigration = {
        id: state.id(),
        guid: randomUUID(),
        kind: who.kind,
        owner: who.owner,
        state: 'pending',
        lockRepositories: body?.lock_repositories === true,
        excludeAttachments: body?.exclude_attachments === true,
        exclude: Array.isArray(body?.exclude) ? (body?.exclude as string[]) : [],
        repositories: names,
        createdAt: now,
        updatedAt: now,
      };
      state.migrations.set(migration.id, migration);
      if (migration.lockRepositories)
        for (const name of names) (state.repos.get(name) as { locked: boolean }).locked = true;
      run(state, migration);
      return c.json(migrationJson(state, migration), 201);
    });

    app.get(`${prefix}/:id`, (c) => {
      const refused = previewRequired(c);
      if (refused) return refused;
      const migration = find(c, orgOf(c));
      if (migration instanceof Response) return migration;
      return c.json(migrationJson(state, migration));
    });

    app.get(`${prefix}/:id/archive`, (c) => {
      const refused = previewRequired(c);
      if (refused) return refused;
      const migration = find(c, orgOf(c));
      if (migration instanceof Response) return migration;
      if (!migration.archive) return basicError(c, 404, 'Not Found');
      return c.redirect(`${state.webUrl}/_archives/${migration.archive}.tar.gz`, 302);
    });

    app.delete(`${prefix}/:id/archive`, (c) => {
      const refused = previewRequired(c);
      if (refused) return refused;
      const migration = find(c, orgOf(c));
      if (migration instanceof Response) return migration;
      if (!migration.archive) return basicError(c, 404, 'Not Found');
      migration.archive = undefined;
      return c.body(null, 204);
    });

    app.delete(`${prefix}/:id/repos/:repo/lock`, (c) => {
      const refused = previewRequired(c);
      if (refused) return refused;
      const migration = find(c, orgOf(c));
      if (migration instanceof Response) return migration;
      const full = migration.repositories.find((name) => name.split('/')[1] === c.req.param('repo'));
      const repo = full ? state.repos.get(full) : undefined;
      if (!repo?.locked) return basicError(c, 404, 'Not Found');
      repo.locked = false;
      return c.body(null, 204);
    });

    app.get(`${prefix}/:id/repositories`, (c) => {
      const refused = previewRequired(c);
      if (refused) return refused;
      const migration = find(c, orgOf(c));
      if (migration instanceof Response) return migration;
      const repos = migration.repositories.flatMap((name) => {
        const repo = state.repos.get(name);
        return repo ? [repoJson(state, repo)] : [];
      });
      const paged = paginate(c, repos);
      if ('error' in paged) return paged.error;
      return c.json(paged.page);
    });
  }
  return app;
}
