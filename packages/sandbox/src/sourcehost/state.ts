/**
 * State of the source host emulator: accounts and organizations, repositories with per-user
 * permissions and files, the OAuth application with its codes and tokens, migrations, imports, legacy
 * authorizations and grants, rate-limit windows, and webhooks. Lifecycle timers go through
 * {@link SandboxTimers} (stopped at close).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SandboxTimers } from '../toolhost/context';

/** A user or organization account. */
export interface SandboxAccount {
  id: number;
  login: string;
  name: string;
  type: 'User' | 'Organization';
  /** Users only: the password the legacy authorizations API takes. */
  password?: string;
}

/** What one user may do in a repository. */
export interface SandboxPermission {
  admin: boolean;
  push: boolean;
  pull: boolean;
}

/** One commit of a repository (commits.ts). */
export interface SandboxCommit {
  sha: string;
  parent?: string;
  message: string;
  authorName: string;
  authorEmail: string;
  /** The account the commit is linked to (`author.login`), if any. */
  login?: string;
  /** ISO 8601. */
  date: string;
  /** A build of this commit fails on the tool hosting platform emulator (a broken push). */
  failsBuild: boolean;
}

/** The commits and branch heads of one repository. */
export interface RepoHistory {
  commits: Map<string, SandboxCommit>;
  heads: Map<string, string>;
}

/** A pull request (pulls.ts). */
export interface SandboxPull {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged: boolean;
  draft: boolean;
  /** The author's login. */
  login: string;
  head: string;
  base: string;
  /** ISO 8601. */
  createdAt: string;
}

/** A repository. */
export interface SandboxRepo {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  /** Per user login; owners of the owning account are admins. */
  permissions: Map<string, SandboxPermission>;
  locked: boolean;
}

/** An access token. */
export interface SandboxToken {
  token: string;
  login: string;
  scopes: string[];
  /** The OAuth application it was granted to. */
  clientId?: string;
  createdAt: number;
}

/** An authorization code waiting for its exchange. */
export interface SandboxCode {
  clientId: string;
  login: string;
  scopes: string[];
  redirectUri: string;
  codeChallenge?: string;
  expiresAt: number;
  used: boolean;
}

/** The registered OAuth application. */
export interface SandboxApp {
  clientId: string;
  clientSecret: string;
  name: string;
  /** The registered callback URL. */
  callbackUrl: string;
  suspended: boolean;
}

/** A migration (export). */
export interface SandboxMigration {
  id: number;
  guid: string;
  /** `org` migrations belong to an organization, `user` ones to a user. */
  kind: 'org' | 'user';
  owner: string;
  state: string;
  lockRepositories: boolean;
  excludeAttachments: boolean;
  exclude: string[];
  /** Full names. */
  repositories: string[];
  createdAt: string;
  updatedAt: string;
  /** Signed download token of the archive, once exported and until deleted. */
  archive?: string | undefined;
}

/** A source import of one repository. */
export interface SandboxImport {
  repo: string;
  vcs: string | null;
  vcsUrl: string;
  status: string;
  statusText: string;
  useLfs: string;
  commitCount: number;
  importPercent: number;
  pushPercent: number;
  authors: SandboxImportAuthor[];
  largeFiles: { ref_name: string; path: string; oid: string; size: number }[];
  failedStep?: string;
  errorMessage?: string;
  /** Who started it (the webhook's sender). */
  sender: string;
  /** Cancels the pending lifecycle step. */
  stop?: (() => void) | undefined;
}

/** A commit author found by an import. */
export interface SandboxImportAuthor {
  id: number;
  remote_id: string;
  remote_name: string;
  email: string;
  name: string;
}

/** A legacy authorization (token created with a password). */
export interface SandboxAuthorization {
  id: number;
  login: string;
  clientId: string;
  token: string;
  scopes: string[];
  note: string | null;
  noteUrl: string | null;
  fingerprint: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A configured webhook. */
export interface SandboxHook {
  id: number;
  url: string;
  secret: string;
}

/** One webhook delivery attempt, as recorded for tests. */
export interface SandboxDelivery {
  id: string;
  hookId: number;
  event: string;
  body: string;
  status: number | 'error';
}

/** A rate-limit window of one credential. */
export interface SandboxWindow {
  limit: number;
  used: number;
  /** Unix seconds. */
  reset: number;
}

/** Everything the emulator knows. */
export class SourcehostState {
  readonly accounts = new Map<string, SandboxAccount>();
  /** Organization login → logins of its owners. */
  readonly orgOwners = new Map<string, Set<string>>();
  /** Full name → repository. */
  readonly repos = new Map<string, SandboxRepo>();
  /** Files of repositories: full name → branch → path → bytes (contents.ts). */
  readonly files = new Map<string, Map<string, Map<string, Buffer>>>();
  /** Commit history of repositories (commits.ts): full name → branches and commits. */
  readonly histories = new Map<string, RepoHistory>();
  /** Pull requests of repositories (pulls.ts): full name → by number. */
  readonly pulls = new Map<string, Map<number, SandboxPull>>();
  readonly tokens = new Map<string, SandboxToken>();
  readonly codes = new Map<string, SandboxCode>();
  readonly migrations = new Map<number, SandboxMigration>();
  readonly imports = new Map<string, SandboxImport>();
  readonly authorizations = new Map<number, SandboxAuthorization>();
  readonly hooks: SandboxHook[] = [];
  readonly deliveries: SandboxDelivery[] = [];
  readonly windows = new Map<string, SandboxWindow>();
  readonly timers = new SandboxTimers();
  /** Secondary-limit refusals still to answer, and their `retry-after`. */
  secondary = { remaining: 0, retryAfter: 1 };
  app: SandboxApp;
  private nextId = 5000;

  constructor(
    /** Pace of lifecycles (ms per step). */
    readonly stepMs: number,
    /** Web host base URL (for html_url, archive links), set once listening. */
    public webUrl = 'http://127.0.0.1',
    public apiUrl = 'http://127.0.0.1',
  ) {
    this.app = {
      clientId: 'Ov23liSandboxApp0001',
      clientSecret: randomBytes(20).toString('hex'),
      name: 'Deckhand (sandbox)',
      callbackUrl: 'http://127.0.0.1/oauth/source/callback',
      suspended: false,
    };
  }

  /** A fresh numeric id. */
  id(): number {
    this.nextId += 1;
    return this.nextId;
  }

  /** A fresh token for `login`. */
  issueToken(login: string, scopes: string[], clientId?: string): SandboxToken {
    const token: SandboxToken = {
      token: `gho_${randomBytes(18).toString('hex')}`,
      login,
      scopes,
      ...(clientId ? { clientId } : {}),
      createdAt: Date.now(),
    };
    this.tokens.set(token.token, token);
    return token;
  }

  /** A new delivery id. */
  deliveryId(): string {
    return randomUUID();
  }

  /** The permission of `login` in a repository (owners of the owning account are admins). */
  permission(repo: SandboxRepo, login: string | undefined): SandboxPermission {
    const none = { admin: false, push: false, pull: !repo.private };
    if (!login) return none;
    if (repo.owner === login || this.orgOwners.get(repo.owner)?.has(login)) {
      return { admin: true, push: true, pull: true };
    }
    return repo.permissions.get(login) ?? none;
  }

  /** True when `login` owns the organization `org`. */
  ownsOrg(org: string, login: string): boolean {
    return this.orgOwners.get(org)?.has(login) ?? false;
  }
}
