import { Hono } from 'hono';
import { listen, serverFor, shut, urlHost } from '../http-server';
import { type ApiEnv, apiMiddleware, createAccountRoutes, windowOf } from './api';
import { createAuthorizationRoutes } from './authorizations';
import { createCompareRoutes, type PushInput, pushCommit, repoOfUrl, resolveCommit } from './commits';
import { createContentsRoutes } from './contents';
import { createImportRoutes, startImport } from './imports';
import { createMigrationRoutes } from './migrations';
import { closePull, createPullRoutes, openPull, type PullInput } from './pulls';
import { basicError } from './responses';
import { seedSourcehost } from './seed';
import { type SandboxToken, SourcehostState } from './state';
import { createWebApp } from './web';
import { deliverWebhook } from './webhooks';

/** Options of {@link startSourcehostSandbox}. */
export interface SourcehostSandboxOptions {
  /** Duration of one lifecycle step in ms (default 1500). */
  stepMs?: number;
  host?: string;
  /** The OAuth application's registered callback URL (default: loopback, any port). */
  callbackUrl?: string;
}

/** Test and demo controls. */
export interface SourcehostControls {
  /** Changes the registered callback URL. */
  setCallbackUrl(url: string): void;
  /** Suspends (or restores) the OAuth application. */
  suspendApp(suspended: boolean): void;
  /** Adds a webhook; returns its id. */
  addHook(url: string, secret: string): number;
  /** Issues a token directly (as if the user had authorized the app). */
  issueToken(login: string, scopes: string[]): SandboxToken;
  /** Uses up a token's (or, without one, the anonymous) hourly window, resetting in `resetInSeconds`. */
  exhaust(token: string | undefined, resetInSeconds: number): void;
  /** Answers the next `count` API calls with a secondary rate limit (403, `retry-after`). */
  secondaryLimit(count: number, retryAfterSeconds: number): void;
  /** Starts an import of `repo` (full name) from `vcsUrl` as `login`, as `PUT …/import` would. */
  startImport(repo: string, vcsUrl: string, login: string): void;
  /** Sends a webhook event to every hook now. */
  deliver(event: string, payload: unknown): Promise<unknown>;
  /** Pushes one commit on top of `branch` of `repo` (full name); returns its SHA. */
  pushCommit(repo: string, branch: string, input: PushInput): string;
  /** Opens a pull request in `repo` (full name); returns its number. */
  openPull(repo: string, input: PullInput): number;
  /** Closes pull request `number` of `repo`, merged or not. */
  closePull(repo: string, number: number, merged: boolean): void;
}

/**
 * How a build service clones from this host: the commit a clone URL of one of its repositories
 * names at `ref` (a branch, or a SHA), and whether a build of it fails (a broken push).
 */
export interface SourcehostCommits {
  resolve(url: string, ref: string): { sha: string; failsBuild: boolean } | undefined;
}

/** A running source host sandbox. */
export interface SourcehostSandbox {
  /** Web host, e.g. `http://127.0.0.1:40125`. */
  webUrl: string;
  /** REST API host, e.g. `http://127.0.0.1:40126`. */
  apiUrl: string;
  /** The registered OAuth application's client id and secret. */
  clientId: string;
  clientSecret: string;
  state: SourcehostState;
  controls: SourcehostControls;
  /** Commits as a build service cloning from this host sees them. */
  commits: SourcehostCommits;
  close(): Promise<void>;
}

/** The REST API app. */
export function createApiApp(state: SourcehostState): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.use('*', apiMiddleware(state));
  app.route('/', createAccountRoutes(state));
  app.route('/', createContentsRoutes(state));
  app.route('/', createCompareRoutes(state));
  app.route('/', createPullRoutes(state));
  app.route('/', createMigrationRoutes(state));
  app.route('/', createImportRoutes(state));
  app.route('/', createAuthorizationRoutes(state));
  app.notFound((c) => basicError(c, 404, 'Not Found'));
  app.onError((error, c) => basicError(c, 500, `Internal error: ${error.message}`));
  return app;
}

/** Starts the sandbox on two OS-chosen ports of `host` (default 127.0.0.1). */
export async function startSourcehostSandbox(
  options: SourcehostSandboxOptions = {},
): Promise<SourcehostSandbox> {
  const host = options.host ?? '127.0.0.1';
  const state = new SourcehostState(options.stepMs ?? 1500);
  if (options.callbackUrl) state.app.callbackUrl = options.callbackUrl;
  seedSourcehost(state);
  const web = serverFor({ fetch: createWebApp(state).fetch });
  const api = serverFor({ fetch: createApiApp(state).fetch });
  const [webPort, apiPort] = await Promise.all([listen(web, host), listen(api, host)]);
  state.webUrl = `http://${urlHost(host)}:${webPort}`;
  state.apiUrl = `http://${urlHost(host)}:${apiPort}`;
  return {
    webUrl: state.webUrl,
    apiUrl: state.apiUrl,
    clientId: state.app.clientId,
    clientSecret: state.app.clientSecret,
    state,
    controls: {
      setCallbackUrl: (url) => {
        state.app.callbackUrl = url;
      },
      suspendApp: (suspended) => {
        state.app.suspended = suspended;
      },
      addHook: (url, secret) => {
        const id = state.id();
        state.hooks.push({ id, url, secret });
        return id;
      },
      issueToken: (login, scopes) => state.issueToken(login, scopes, state.app.clientId),
      exhaust: (token, resetInSeconds) => {
        const key = token ? `token:${token}` : 'anonymous';
        const window = windowOf(state, key, token ? 5000 : 60);
        window.used = window.limit;
        window.reset = Math.floor(Date.now() / 1000) + resetInSeconds;
      },
      secondaryLimit: (count, retryAfterSeconds) => {
        state.secondary = { remaining: count, retryAfter: retryAfterSeconds };
      },
      startImport: (repo, vcsUrl, login) => {
        startImport(state, repo, vcsUrl, login);
      },
      deliver: (event, payload) => deliverWebhook(state, event, payload),
      pushCommit: (repo, branch, input) => pushCommit(state, repo, branch, input),
      openPull: (repo, input) => openPull(state, repo, input),
      closePull: (repo, number, merged) => closePull(state, repo, number, merged),
    },
    commits: {
      resolve(url, ref) {
        const full = repoOfUrl(state, url);
        const commit = full ? resolveCommit(state, full, ref) : undefined;
        return commit ? { sha: commit.sha, failsBuild: commit.failsBuild } : undefined;
      },
    },
    async close() {
      state.timers.close();
      await Promise.all([shut(web), shut(api)]);
    },
  };
}

export { SEEDED_ORG, SEEDED_USERS } from './seed';
export type { SourcehostState } from './state';
