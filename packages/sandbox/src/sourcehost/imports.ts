/**
 * Emulated source imports (`/repos/{owner}/{repo}/import…`, needs push access and the `repo` scope).
 * Lifecycle of a started import: `detecting` (only without `vcs`) → `importing` (commit count and
 * percentage grow) → `mapping` (commit authors appear) → `pushing` → `complete`, then the
 * `repository_import` webhook (`success`). A `vcs_url` containing `auth` stops at `auth_failed`,
 * `nothing` at `detection_found_nothing`, `error` at `error` (webhook `failure`); `large` adds a file
 * over 100 MB. Cancelling sends the webhook with `cancelled`.
 */
import { type Context, Hono } from 'hono';
import { type ApiEnv, requireAccount, requireScope } from './api';
import { basicError, importJson, validationError } from './responses';
import type { SandboxImport, SourcehostState } from './state';
import { deliverWebhook, repositoryImportPayload } from './webhooks';

const VCS = new Set(['subversion', 'git', 'mercurial', 'tfvc']);

function finish(
  state: SourcehostState,
  item: SandboxImport,
  status: 'success' | 'cancelled' | 'failure',
): void {
  void deliverWebhook(state, 'repository_import', repositoryImportPayload(state, item, status));
}

/** Runs an import's lifecycle from its current status. */
export function runImport(state: SourcehostState, item: SandboxImport): void {
  item.stop?.();
  const step = (fn: () => void) => {
    item.stop = state.timers.after(state.stepMs, fn);
  };
  const url = item.vcsUrl;
  const push = () => {
    item.status = 'pushing';
    item.statusText = 'Pushing';
    item.pushPercent = 50;
    step(() => {
      item.status = 'complete';
      item.statusText = 'Done';
      item.pushPercent = 100;
      item.stop = undefined;
      finish(state, item, 'success');
    });
  };
  const map = () => {
    item.status = 'mapping';
    item.statusText = 'Rewriting commit authors';
    item.authors = [
      { id: state.id(), remote_id: 'alice@svn', remote_name: 'alice', email: 'alice@svn', name: 'alice' },
      { id: state.id(), remote_id: 'bob@svn', remote_name: 'bob', email: 'bob@svn', name: 'bob' },
    ];
    step(push);
  };
  const importing = () => {
    if (url.includes('error')) {
      item.status = 'error';
      item.statusText = 'Error';
      item.failedStep = 'import';
      item.errorMessage = 'The remote repository could not be read.';
      finish(state, item, 'failure');
      return;
    }
    item.status = 'importing';
    item.statusText = 'Importing commits';
    item.commitCount = 120;
    item.importPercent = 40;
    if (url.includes('large')) {
      item.largeFiles = [
        { ref_name: 'refs/heads/main', path: 'assets/video.bin', oid: 'a'.repeat(40), size: 157286400 },
      ];
    }
    step(() => {
      item.commitCount = 300;
      item.importPercent = 100;
      map();
    });
  };
  if (url.includes('auth')) {
    item.status = 'auth_failed';
    item.statusText = 'Authentication failed';
    return;
  }
  if (item.vcs === null) {
    item.status = 'detecting';
    item.statusText = 'Detecting source control';
    step(() => {
      if (url.includes('nothing')) {
        item.status = 'detection_found_nothing';
        item.statusText = 'No source control detected';
        return;
      }
      item.vcs = 'git';
      importing();
    });
    return;
  }
  step(importing);
}

/** Starts an import of `vcsUrl` into `repo` (detecting its source control unless `vcs` names it), for `login`. */
export function startImport(
  state: SourcehostState,
  repo: string,
  vcsUrl: string,
  login: string,
  vcs: string | null = null,
): SandboxImport {
  const item: SandboxImport = {
    repo,
    vcs,
    vcsUrl,
    status: 'detecting',
    statusText: 'Detecting source control',
    useLfs: 'undecided',
    commitCount: 0,
    importPercent: 0,
    pushPercent: 0,
    authors: [],
    largeFiles: [],
    sender: login,
  };
  state.imports.set(repo, item);
  runImport(state, item);
  return item;
}

/** The import routes. */
export function createImportRoutes(state: SourcehostState): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  /** The repository, for an account with push access and the `repo` scope. */
  const target = (c: Context<ApiEnv>) => {
    const account = requireAccount(c);
    if (account instanceof Response) return account;
    const full = `${c.req.param('owner')}/${c.req.param('repo')}`;
    const repo = state.repos.get(full);
    if (!repo || !state.permission(repo, account.login).push) return basicError(c, 404, 'Not Found');
    return requireScope(c, 'repo') ?? { full, login: account.login };
  };
  const existing = (c: Context<ApiEnv>) => {
    const found = target(c);
    if (found instanceof Response) return found;
    return state.imports.get(found.full) ?? basicError(c, 404, 'Not Found');
  };
  const base = '/repos/:owner/:repo/import';

  app.get(base, (c) => {
    const item = existing(c);
    return item instanceof Response ? item : c.json(importJson(state, item));
  });

  app.put(base, async (c) => {
    const found = target(c);
    if (found instanceof Response) return found;
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    if (typeof body.vcs_url !== 'string' || !URL.canParse(body.vcs_url)) {
      return validationError(c, { resource: 'Import', field: 'vcs_url', code: 'missing_field' });
    }
    if (body.vcs !== undefined && !VCS.has(String(body.vcs))) {
      return validationError(c, { resource: 'Import', field: 'vcs', code: 'invalid' });
    }
    state.imports.get(found.full)?.stop?.();
    const item = startImport(
      state,
      found.full,
      body.vcs_url,
      found.login,
      typeof body.vcs === 'string' ? body.vcs : null,
    );
    c.header('location', `${state.apiUrl}/repos/${found.full}/import`);
    return c.json(importJson(state, item), 201);
  });

  app.patch(base, async (c) => {
    const item = existing(c);
    if (item instanceof Response) return item;
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    if (typeof body.vcs === 'string') item.vcs = body.vcs;
    if (
      Object.keys(body).length === 0 ||
      item.status === 'auth_failed' ||
      item.status === 'detection_needs_auth'
    ) {
      if (typeof body.vcs_username === 'string') item.vcsUrl = item.vcsUrl.replace('auth', 'authorised');
      runImport(state, item);
    }
    return c.json(importJson(state, item));
  });

  app.delete(base, (c) => {
    const item = existing(c);
    if (item instanceof Response) return item;
    item.stop?.();
    state.imports.delete(item.repo);
    finish(state, item, 'cancelled');
    return c.body(null, 204);
  });

  app.get(`${base}/authors`, (c) => {
    const item = existing(c);
    if (item instanceof Response) return item;
    const since = Number(c.req.query('since') ?? 0);
    const api = `${state.apiUrl}/repos/${item.repo}/import/authors`;
    return c.json(
      item.authors
        .filter((a) => a.id > since)
        .map((a) => ({
          ...a,
          url: `${api}/${a.id}`,
          import_url: `${state.apiUrl}/repos/${item.repo}/import`,
        })),
    );
  });

  app.patch(`${base}/authors/:id`, async (c) => {
    const item = existing(c);
    if (item instanceof Response) return item;
    const author = item.authors.find((a) => a.id === Number(c.req.param('id')));
    if (!author) return basicError(c, 404, 'Not Found');
    if (item.status === 'complete') {
      return validationError(c, {
        resource: 'Author',
        code: 'custom',
        field: 'email',
        message: 'Authors can no longer be changed: the import was pushed.',
      });
    }
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    if (body.email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(String(body.email))) {
      return validationError(c, { resource: 'Author', field: 'email', code: 'invalid' });
    }
    if (typeof body.email === 'string') author.email = body.email;
    if (typeof body.name === 'string') author.name = body.name;
    return c.json({
      ...author,
      url: `${state.apiUrl}/repos/${item.repo}/import/authors/${author.id}`,
      import_url: `${state.apiUrl}/repos/${item.repo}/import`,
    });
  });

  app.get(`${base}/large_files`, (c) => {
    const item = existing(c);
    return item instanceof Response ? item : c.json(item.largeFiles);
  });

  app.patch(`${base}/lfs`, async (c) => {
    const item = existing(c);
    if (item instanceof Response) return item;
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    if (body.use_lfs !== 'opt_in' && body.use_lfs !== 'opt_out') {
      return validationError(c, { resource: 'Import', field: 'use_lfs', code: 'invalid' });
    }
    item.useLfs = body.use_lfs;
    if (body.use_lfs === 'opt_out') item.largeFiles = [];
    return c.json(importJson(state, item));
  });

  return app;
}
