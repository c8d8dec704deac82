/**
 * Pull requests, as `GET /repos/{owner}/{repo}/pulls/{pull_number}` (`pulls/get`,
 * https://docs.github.com/rest/pulls/pulls#get-a-pull-request) answers them: `number`, `state`
 * (`open` | `closed`), `title`, `body`, `user`, `draft`, `merged`, `merged_at`, `head`/`base` (`ref`,
 * `label`), `html_url`, `created_at`; 404 for a pull request or repository the caller cannot see.
 * Opened and merged by the emulator's controls ({@link openPull}).
 */
import { Hono } from 'hono';
import type { ApiEnv } from './api';
import { readable } from './commits';
import type { SandboxPull, SourcehostState } from './state';

/** What a new pull request says. */
export interface PullInput {
  title: string;
  body?: string;
  login: string;
  head: string;
  base?: string;
  draft?: boolean;
}

/** Opens a pull request in repository `full`; returns its number. */
export function openPull(state: SourcehostState, full: string, input: PullInput): number {
  let pulls = state.pulls.get(full);
  if (!pulls) {
    pulls = new Map();
    state.pulls.set(full, pulls);
  }
  const number = pulls.size + 1;
  pulls.set(number, {
    number,
    title: input.title,
    body: input.body ?? '',
    state: 'open',
    merged: false,
    draft: input.draft ?? false,
    login: input.login,
    head: input.head,
    base: input.base ?? 'main',
    createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });
  return number;
}

/** Closes pull request `number` of `full`, merged or not. */
export function closePull(state: SourcehostState, full: string, number: number, merged: boolean): void {
  const pull = state.pulls.get(full)?.get(number);
  if (!pull) throw new Error(`no pull request ${full}#${number}`);
  Object.assign(pull, { state: 'closed', merged });
}

function pullJson(state: SourcehostState, full: string, pull: SandboxPull) {
  const [owner] = full.split('/');
  const account = state.accounts.get(pull.login);
  const user = { login: pull.login, id: account?.id ?? 0, type: account?.type ?? 'User' };
  const branch = (ref: string) => ({ ref, label: `${owner}:${ref}`, user, repo: null });
  return {
    url: `${state.apiUrl}/repos/${full}/pulls/${pull.number}`,
    id: 70000 + pull.number,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    body: pull.body || null,
    user,
    draft: pull.draft,
    merged: pull.merged,
    merged_at: pull.merged ? pull.createdAt : null,
    closed_at: pull.state === 'closed' ? pull.createdAt : null,
    created_at: pull.createdAt,
    updated_at: pull.createdAt,
    head: branch(pull.head),
    base: branch(pull.base),
    html_url: `${state.webUrl}/${full}/pull/${pull.number}`,
  };
}

/** `GET /repos/{owner}/{repo}/pulls/{pull_number}`. */
export function createPullRoutes(state: SourcehostState): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get('/repos/:owner/:repo/pulls/:number', (c) => {
    const full = `${c.req.param('owner')}/${c.req.param('repo')}`;
    const pull = readable(state, c, full)
      ? state.pulls.get(full)?.get(Number(c.req.param('number')))
      : undefined;
    if (!pull) {
      return c.json(
        {
          message: 'Not Found',
          documentation_url: 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request',
          status: '404',
        },
        404,
      );
    }
    return c.json(pullJson(state, full, pull));
  });
  return app;
}
