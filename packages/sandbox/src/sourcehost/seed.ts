/**
 * Seed data of the source host sandbox:
 * - `mona` (password `sandbox-password-mona` for the legacy API) owns the organization
 *   `toolforge-repos`, whose repositories `mytool` and `demo` are the seeded tools' sources: mona
 *   has push access to them (so a chat user linked as mona maintains mytool and demo). mytool's
 *   branch `main` holds a `jobs.yaml` for `/jobs load mytool --from-repo`: the seeded jobs `web`
 *   and `daily-report` as they are, a new `weekly-cleanup`, and no `migrate-db` (so loading it plans
 *   1 create and 1 delete); demo's holds no jobs file.
 * - `hubot` may only read those repositories, and owns `hubot/scratch`.
 * - `mona/notes` is private; `mona/legacy-svn` has a finished Subversion import with two commit
 *   authors and one large file.
 */
import { putFiles } from './contents';
import type { SourcehostState } from './state';

/** The seeded organization that holds the seeded tools' repositories. */
export const SEEDED_ORG = 'toolforge-repos';

/** mytool's `jobs.yaml` (the CLI's option names; `web` and `daily-report` as the tool host seeds them). */
export const MYTOOL_JOBS_YAML = `# Jobs of mytool: toolforge jobs load jobs.yaml (or /jobs load mytool --from-repo)
- name: web
  command: web
  image: tool-mytool/web:latest
  continuous: true
  port: 8000
  publish: /
- name: daily-report
  command: python3 report.py --daily
  image: python3.11
  schedule: '@daily'
  filelog: false
- name: weekly-cleanup
  command: ./cleanup.sh --older-than 30d
  image: tool-mytool/web:latest
  schedule: '0 3 * * 0'
`;

/** Logins of the seeded users, in the order the authorize page offers them. */
export const SEEDED_USERS = ['mona', 'hubot'] as const;

/** Seeds accounts, repositories and one finished import. */
export function seedSourcehost(state: SourcehostState): void {
  state.accounts.set('mona', {
    id: 583231,
    login: 'mona',
    name: 'Mona Lisa',
    type: 'User',
    password: 'sandbox-password-mona',
  });
  state.accounts.set('hubot', {
    id: 583232,
    login: 'hubot',
    name: 'Hubot',
    type: 'User',
    password: 'sandbox-password-hubot',
  });
  state.accounts.set(SEEDED_ORG, {
    id: 900001,
    login: SEEDED_ORG,
    name: 'Toolforge repositories',
    type: 'Organization',
  });
  state.orgOwners.set(SEEDED_ORG, new Set(['mona']));
  const repo = (owner: string, name: string, isPrivate = false) => {
    const created = {
      id: state.id(),
      owner,
      name,
      private: isPrivate,
      permissions: new Map(),
      locked: false,
    };
    state.repos.set(`${owner}/${name}`, created);
    return created;
  };
  for (const name of ['mytool', 'demo']) {
    repo(SEEDED_ORG, name).permissions.set('hubot', { admin: false, push: false, pull: true });
  }
  putFiles(state, `${SEEDED_ORG}/mytool`, {
    'README.md': '# mytool\n\nA Toolforge tool (sandbox seed).\n',
    Procfile: 'web: python3 -m mytool.web\n',
    'jobs.yaml': MYTOOL_JOBS_YAML,
    'cleanup.sh': '#!/bin/sh\nfind ~/cache -mtime +30 -delete\n',
    'mytool/__init__.py': '',
    'mytool/web.py': 'print("serving on :8000")\n',
  });
  putFiles(state, `${SEEDED_ORG}/demo`, {
    'README.md': '# demo\n',
    Procfile: 'web: ./serve.sh\n',
  });
  repo('mona', 'notes', true);
  repo('mona', 'legacy-svn');
  repo('hubot', 'scratch');
  state.imports.set('mona/legacy-svn', {
    repo: 'mona/legacy-svn',
    vcs: 'subversion',
    vcsUrl: 'https://svn.example.org/legacy',
    status: 'complete',
    statusText: 'Done',
    useLfs: 'undecided',
    commitCount: 1042,
    importPercent: 100,
    pushPercent: 100,
    authors: [
      {
        id: 2268557,
        remote_id: 'nobody@fc7da526-431c-80fe-3c8c-c148ff18d7ef',
        remote_name: 'nobody',
        email: 'hubot@github.com',
        name: 'Hubot',
      },
      {
        id: 2268558,
        remote_id: 'svner@fc7da526-431c-80fe-3c8c-c148ff18d7ef',
        remote_name: 'svner',
        email: 'svner@fc7da526-431c-80fe-3c8c-c148ff18d7ef',
        name: 'svner',
      },
    ],
    largeFiles: [
      {
        ref_name: 'refs/heads/master',
        path: 'foo/bar/1',
        oid: 'd3d9446802a44259755d38e6d163e820',
        size: 10485760,
      },
    ],
    sender: 'mona',
  });
}
