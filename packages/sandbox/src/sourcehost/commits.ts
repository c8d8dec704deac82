/**
 * Commit history of the emulated repositories and the compare route, as GitHub describes it
 * (`GET /repos/{owner}/{repo}/compare/{basehead}`, `basehead` = `BASE...HEAD`; answer
 * `commit-comparison` of github/rest-api-description: `status` ahead | behind | diverged |
 * identical, `ahead_by`, `behind_by`, `total_commits`, `commits` oldest first with `sha`,
 * `commit.message`, `commit.author.name`, `author.login`). Histories are linear per branch; a push
 * ({@link pushCommit}) adds one commit on top of a branch. Also the facade through which the tool
 * hosting platform emulator resolves a build's `ref` to the commit it builds.
 */
import { createHash } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { type ApiEnv, hasScope } from './api';
import type { RepoHistory, SandboxCommit, SourcehostState } from './state';

const DOCS = 'https://docs.github.com/rest/commits/commits#compare-two-commits';
const MAX_COMMITS = 250;

/** What a push says about its commit. */
export interface PushInput {
  message: string;
  authorName: string;
  authorEmail?: string;
  login?: string;
  /** A build of this commit fails on the tool platform emulator. */
  failsBuild?: boolean;
}

function historyOf(state: SourcehostState, full: string): RepoHistory {
  let history = state.histories.get(full);
  if (!history) {
    history = { commits: new Map(), heads: new Map() };
    state.histories.set(full, history);
  }
  return history;
}

/** Adds one commit on top of `branch` of repository `full` (`owner/name`); returns its SHA. */
export function pushCommit(state: SourcehostState, full: string, branch: string, input: PushInput): string {
  const history = historyOf(state, full);
  const parent = history.heads.get(branch);
  const date = new Date(Date.now() + history.commits.size).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const sha = createHash('sha1')
    .update(`${full}\n${parent ?? ''}\n${input.message}\n${input.authorName}\n${history.commits.size}`)
    .digest('hex');
  const commit: SandboxCommit = {
    sha,
    message: input.message,
    authorName: input.authorName,
    authorEmail: input.authorEmail ?? `${input.authorName.toLowerCase().replace(/\W+/g, '.')}@example.org`,
    date,
    failsBuild: input.failsBuild ?? false,
    ...(parent ? { parent } : {}),
    ...(input.login ? { login: input.login } : {}),
  };
  history.commits.set(sha, commit);
  history.heads.set(branch, sha);
  return sha;
}

/** The commit a branch name, full SHA or SHA prefix (7+ hex) names in repository `full`. */
export function resolveCommit(state: SourcehostState, full: string, ref: string): SandboxCommit | undefined {
  const history = state.histories.get(full);
  if (!history) return undefined;
  const branch = history.heads.get(ref.replace(/^refs\/heads\//, ''));
  if (branch) return history.commits.get(branch);
  if (!/^[0-9a-f]{7,40}$/i.test(ref)) return undefined;
  const lower = ref.toLowerCase();
  return [...history.commits.values()].find((commit) => commit.sha.startsWith(lower));
}

/** The repository (`owner/name`) a clone URL on this host names, if it is one of its repositories. */
export function repoOfUrl(state: SourcehostState, url: string): string | undefined {
  const prefix = `${state.webUrl}/`;
  if (!url.startsWith(prefix)) return undefined;
  const full = url
    .slice(prefix.length)
    .replace(/\.git$/, '')
    .replace(/\/$/, '');
  return state.repos.has(full) ? full : undefined;
}

/** Commits from `sha` back to the root, newest first. */
function lineage(history: RepoHistory, sha: string): SandboxCommit[] {
  const out: SandboxCommit[] = [];
  let current = history.commits.get(sha);
  while (current) {
    out.push(current);
    current = current.parent ? history.commits.get(current.parent) : undefined;
  }
  return out;
}

function commitJson(state: SourcehostState, full: string, commit: SandboxCommit) {
  const account = commit.login ? state.accounts.get(commit.login) : undefined;
  const person = { name: commit.authorName, email: commit.authorEmail, date: commit.date };
  const url = `${state.apiUrl}/repos/${full}/commits/${commit.sha}`;
  const user = account
    ? {
        login: account.login,
        id: account.id,
        type: account.type,
        url: `${state.apiUrl}/users/${account.login}`,
        html_url: `${state.webUrl}/${account.login}`,
      }
    : null;
  return {
    sha: commit.sha,
    node_id: Buffer.from(`Commit:${commit.sha}`).toString('base64'),
    url,
    html_url: `${state.webUrl}/${full}/commit/${commit.sha}`,
    commit: {
      author: person,
      committer: person,
      message: commit.message,
      tree: { sha: commit.sha, url: `${state.apiUrl}/repos/${full}/git/trees/${commit.sha}` },
      url: `${state.apiUrl}/repos/${full}/git/commits/${commit.sha}`,
      comment_count: 0,
    },
    author: user,
    committer: user,
    parents: commit.parent
      ? [{ sha: commit.parent, url: `${state.apiUrl}/repos/${full}/commits/${commit.parent}` }]
      : [],
  };
}

function notFound(c: Context, message = 'Not Found') {
  return c.json({ message, documentation_url: DOCS, status: '404' }, 404);
}

/** The comparison of two commits (both known in `history`). */
function compare(state: SourcehostState, full: string, base: SandboxCommit, head: SandboxCommit) {
  const history = historyOf(state, full);
  const baseLine = lineage(history, base.sha);
  const baseShas = new Set(baseLine.map((commit) => commit.sha));
  const headLine = lineage(history, head.sha);
  const mergeIndex = headLine.findIndex((commit) => baseShas.has(commit.sha));
  const ahead = mergeIndex < 0 ? headLine : headLine.slice(0, mergeIndex);
  const mergeBase = mergeIndex < 0 ? undefined : headLine[mergeIndex];
  const behindBy = mergeBase ? baseLine.findIndex((commit) => commit.sha === mergeBase.sha) : baseLine.length;
  const status =
    ahead.length === 0 && behindBy === 0
      ? 'identical'
      : behindBy === 0
        ? 'ahead'
        : ahead.length === 0
          ? 'behind'
          : 'diverged';
  const basehead = `${base.sha}...${head.sha}`;
  return {
    url: `${state.apiUrl}/repos/${full}/compare/${basehead}`,
    html_url: `${state.webUrl}/${full}/compare/${basehead}`,
    permalink_url: `${state.webUrl}/${full}/compare/${basehead}`,
    diff_url: `${state.webUrl}/${full}/compare/${basehead}.diff`,
    patch_url: `${state.webUrl}/${full}/compare/${basehead}.patch`,
    base_commit: commitJson(state, full, base),
    merge_base_commit: commitJson(state, full, mergeBase ?? base),
    status,
    ahead_by: ahead.length,
    behind_by: behindBy,
    total_commits: ahead.length,
    // Oldest first, at most 250 (GitHub's limit without pagination).
    commits: ahead
      .slice(0, MAX_COMMITS)
      .reverse()
      .map((commit) => commitJson(state, full, commit)),
    files: [],
  };
}

/** Whether the caller may read repository `full` (a private one is as unknown as a missing one). */
export function readable(state: SourcehostState, c: Context<ApiEnv>, full: string): boolean {
  const repo = state.repos.get(full);
  const login = c.get('account')?.login;
  return Boolean(
    repo &&
      state.permission(repo, login).pull &&
      (!repo.private || Boolean(c.get('basic')) || hasScope(c.get('token'), 'repo')),
  );
}

/**
 * `GET /repos/{owner}/{repo}/compare/{basehead}`, and `GET /repos/{owner}/{repo}/commits/{ref}`
 * (`repos/get-commit`: one commit by SHA, SHA prefix or branch, its `stats` and `files` empty here).
 */
export function createCompareRoutes(state: SourcehostState): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get('/repos/:owner/:repo/commits/:ref{.+}', (c) => {
    const full = `${c.req.param('owner')}/${c.req.param('repo')}`;
    if (!readable(state, c, full)) return notFound(c);
    const commit = resolveCommit(state, full, c.req.param('ref'));
    if (!commit) {
      return c.json({ message: `No commit found for SHA: ${c.req.param('ref')}`, status: '422' }, 422);
    }
    return c.json({
      ...commitJson(state, full, commit),
      stats: { total: 0, additions: 0, deletions: 0 },
      files: [],
    });
  });
  app.get('/repos/:owner/:repo/compare/:basehead{.+}', (c) => {
    const full = `${c.req.param('owner')}/${c.req.param('repo')}`;
    if (!readable(state, c, full)) return notFound(c);
    const [baseRef, headRef, extra] = c.req.param('basehead').split('...');
    if (!baseRef || !headRef || extra !== undefined) return notFound(c);
    const base = resolveCommit(state, full, baseRef);
    const head = resolveCommit(state, full, headRef);
    if (!base || !head) return notFound(c);
    return c.json(compare(state, full, base, head));
  });
  return app;
}
