/** JSON shapes the emulator answers with (GitHub's), error bodies, and pagination. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { SandboxAccount, SandboxImport, SandboxMigration, SandboxRepo, SourcehostState } from './state';

const DOCS = 'https://docs.github.com/rest';

/** `basic-error`. */
export function basicError(c: Context, status: ContentfulStatusCode, message: string): Response {
  return c.json({ message, documentation_url: DOCS, status: String(status) }, status);
}

/** `validation-error` (422) with one error. */
export function validationError(c: Context, error: Record<string, string>): Response {
  return c.json({ message: 'Validation Failed', documentation_url: DOCS, errors: [error] }, 422);
}

/** `simple-user`. */
export function userJson(state: SourcehostState, account: SandboxAccount): Record<string, unknown> {
  const api = `${state.apiUrl}/users/${account.login}`;
  return {
    login: account.login,
    id: account.id,
    node_id: Buffer.from(`04:User${account.id}`).toString('base64'),
    avatar_url: `${state.webUrl}/avatars/${account.login}.png`,
    gravatar_id: '',
    url: api,
    html_url: `${state.webUrl}/${account.login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: account.type,
    site_admin: false,
  };
}

const REPO_LINKS = [
  'archive_url:/{archive_format}{/ref}',
  'assignees_url:/assignees{/user}',
  'blobs_url:/git/blobs{/sha}',
  'branches_url:/branches{/branch}',
  'collaborators_url:/collaborators{/collaborator}',
  'comments_url:/comments{/number}',
  'commits_url:/commits{/sha}',
  'compare_url:/compare/{base}...{head}',
  'contents_url:/contents/{+path}',
  'contributors_url:/contributors',
  'deployments_url:/deployments',
  'downloads_url:/downloads',
  'events_url:/events',
  'forks_url:/forks',
  'git_commits_url:/git/commits{/sha}',
  'git_refs_url:/git/refs{/sha}',
  'git_tags_url:/git/tags{/sha}',
  'hooks_url:/hooks',
  'issue_comment_url:/issues/comments{/number}',
  'issue_events_url:/issues/events{/number}',
  'issues_url:/issues{/number}',
  'keys_url:/keys{/key_id}',
  'labels_url:/labels{/name}',
  'languages_url:/languages',
  'merges_url:/merges',
  'milestones_url:/milestones{/number}',
  'notifications_url:/notifications{?since,all,participating}',
  'pulls_url:/pulls{/number}',
  'releases_url:/releases{/id}',
  'stargazers_url:/stargazers',
  'statuses_url:/statuses/{sha}',
  'subscribers_url:/subscribers',
  'subscription_url:/subscription',
  'tags_url:/tags',
  'teams_url:/teams',
  'trees_url:/git/trees{/sha}',
];

/** `repository` (the `simple-repository` fields plus `permissions` for the caller). */
export function repoJson(state: SourcehostState, repo: SandboxRepo, login?: string): Record<string, unknown> {
  const full = `${repo.owner}/${repo.name}`;
  const api = `${state.apiUrl}/repos/${full}`;
  const owner = state.accounts.get(repo.owner);
  const links = Object.fromEntries(
    REPO_LINKS.map((entry) => {
      const at = entry.indexOf(':');
      return [entry.slice(0, at), `${api}${entry.slice(at + 1)}`];
    }),
  );
  const permission = state.permission(repo, login);
  return {
    id: repo.id,
    node_id: Buffer.from(`010:Repository${repo.id}`).toString('base64'),
    name: repo.name,
    full_name: full,
    owner: owner ? userJson(state, owner) : null,
    private: repo.private,
    html_url: `${state.webUrl}/${full}`,
    description: null,
    fork: false,
    url: api,
    ...links,
    ...(login ? { permissions: permission } : {}),
  };
}

/** `repository`: the full shape (inside migrations). */
export function fullRepoJson(state: SourcehostState, repo: SandboxRepo): Record<string, unknown> {
  const full = `${repo.owner}/${repo.name}`;
  const web = `${state.webUrl}/${full}`;
  const host = new URL(state.webUrl).host;
  const at = '2024-01-02T03:04:05Z';
  return {
    ...repoJson(state, repo),
    clone_url: `${web}.git`,
    git_url: `git://${host}/${full}.git`,
    ssh_url: `git@${host}:${full}.git`,
    svn_url: web,
    mirror_url: null,
    homepage: null,
    language: null,
    default_branch: 'main',
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    open_issues: 0,
    open_issues_count: 0,
    size: 128,
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    archived: false,
    disabled: false,
    license: null,
    pushed_at: at,
    created_at: at,
    updated_at: at,
  };
}

/** `migration`. */
export function migrationJson(state: SourcehostState, migration: SandboxMigration, withRepos = true) {
  const owner = state.accounts.get(migration.owner);
  const base =
    migration.kind === 'org'
      ? `${state.apiUrl}/orgs/${migration.owner}/migrations`
      : `${state.apiUrl}/user/migrations`;
  return {
    id: migration.id,
    node_id: Buffer.from(`09:Migration${migration.id}`).toString('base64'),
    owner: owner ? userJson(state, owner) : null,
    guid: migration.guid,
    state: migration.state,
    lock_repositories: migration.lockRepositories,
    exclude_metadata: false,
    exclude_git_data: false,
    exclude_attachments: migration.excludeAttachments,
    exclude_releases: false,
    exclude_owner_projects: false,
    org_metadata_only: false,
    repositories: withRepos
      ? migration.repositories.flatMap((name) => {
          const repo = state.repos.get(name);
          return repo ? [fullRepoJson(state, repo)] : [];
        })
      : [],
    url: `${base}/${migration.id}`,
    archive_url: `${base}/${migration.id}/archive`,
    created_at: migration.createdAt,
    updated_at: migration.updatedAt,
    ...(migration.exclude.length ? { exclude: migration.exclude } : {}),
  };
}

/** `import`. */
export function importJson(state: SourcehostState, item: SandboxImport): Record<string, unknown> {
  const api = `${state.apiUrl}/repos/${item.repo}`;
  return {
    vcs: item.vcs,
    // The seed's prose shows opt_in/undecided strings; the spec's schema and example (the real service) a boolean.
    use_lfs: item.useLfs === 'opt_in',
    vcs_url: item.vcsUrl,
    status: item.status,
    status_text: item.statusText,
    ...(item.failedStep ? { failed_step: item.failedStep, error_message: item.errorMessage ?? null } : {}),
    import_percent: item.importPercent,
    commit_count: item.commitCount,
    push_percent: item.pushPercent,
    has_large_files: item.largeFiles.length > 0,
    large_files_size: item.largeFiles.reduce((sum, f) => sum + f.size, 0),
    large_files_count: item.largeFiles.length,
    authors_count: item.authors.length,
    url: `${api}/import`,
    html_url: `${state.webUrl}/${item.repo}/import`,
    authors_url: `${api}/import/authors`,
    repository_url: api,
  };
}

/**
 * One page of `items` by `per_page` (default 30, max 100) and `page`, with GitHub's `Link` header;
 * a bad `per_page`/`page` answers 422.
 */
export function paginate<T>(c: Context, items: T[]): { page: T[] } | { error: Response } {
  const perPage = Number(c.req.query('per_page') ?? 30);
  const page = Number(c.req.query('page') ?? 1);
  if (!Number.isInteger(perPage) || perPage < 1 || !Number.isInteger(page) || page < 1) {
    return { error: validationError(c, { resource: 'Search', field: 'per_page', code: 'invalid' }) };
  }
  const size = Math.min(perPage, 100);
  const last = Math.max(1, Math.ceil(items.length / size));
  const url = new URL(c.req.url);
  const link = (n: number, rel: string) => {
    url.searchParams.set('page', String(n));
    url.searchParams.set('per_page', String(size));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
  if (links.length) c.header('link', links.join(', '));
  return { page: items.slice((page - 1) * size, page * size) };
}
