/** The source host client: one transport and OAuth application per process, cheap views per token. */
import { AccountApi } from './account';
import { AuthorizationsApi } from './authorizations';
import { CommitsApi } from './commits';
import { ContentsApi } from './contents';
import { ImportsApi } from './imports';
import { MigrationsApi } from './migrations';
import { OAuthWebFlow } from './oauth';
import { PullsApi } from './pulls';
import { type SourcehostAuth, SourcehostTransport } from './transport';

/** Options of a {@link SourcehostFactory}. */
export interface SourcehostOptions {
  /** REST base, e.g. `https://api.github.com`. */
  apiUrl: string;
  /** Web host (OAuth, settings pages), e.g. `https://github.com`. */
  webUrl: string;
  /** The OAuth application (needed for `/link source`). */
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  timeoutMs?: number;
  /** Longest wait for a rate limit before refusing (default 10 s). */
  maxWaitMs?: number;
  /** How to wait (tests). */
  sleep?: (ms: number) => Promise<void>;
}

/** What one account can do: its profile and repositories, files, migrations, imports. */
export class SourcehostClient {
  /** The account, repository permissions, rate limits. */
  readonly account: AccountApi;
  /** Export archives. */
  readonly migrations: MigrationsApi;
  /** Files and directories of repositories. */
  readonly contents: ContentsApi;
  /** Commits and comparisons. */
  readonly commits: CommitsApi;
  /** Pull requests. */
  readonly pulls: PullsApi;

  constructor(
    private readonly transport: SourcehostTransport,
    private readonly auth: SourcehostAuth,
  ) {
    this.account = new AccountApi(transport, auth);
    this.migrations = new MigrationsApi(transport, auth);
    this.contents = new ContentsApi(transport, auth);
    this.commits = new CommitsApi(transport, auth);
    this.pulls = new PullsApi(transport, auth);
  }

  /** The source import of `owner/repo`. */
  imports(owner: string, repo: string): ImportsApi {
    return new ImportsApi(this.transport, this.auth, owner, repo);
  }
}

/**
 * Makes source host clients: `factory.forToken(token).migrations.start(...)`. The OAuth web flow is
 * `factory.oauth` (undefined until a client id and secret are configured).
 */
export class SourcehostFactory {
  private readonly transport: SourcehostTransport;
  /** The OAuth application, when configured. */
  readonly oauth: OAuthWebFlow | undefined;

  constructor(private readonly options: SourcehostOptions) {
    this.transport = new SourcehostTransport({
      apiUrl: options.apiUrl,
      timeoutMs: options.timeoutMs,
      maxWaitMs: options.maxWaitMs,
      sleep: options.sleep,
    });
    this.oauth =
      options.clientId && options.clientSecret
        ? new OAuthWebFlow({
            webUrl: options.webUrl,
            clientId: options.clientId,
            clientSecret: options.clientSecret,
            timeoutMs: options.timeoutMs,
          })
        : undefined;
  }

  /** The web host, e.g. `https://github.com`. */
  get webUrl(): string {
    return this.options.webUrl;
  }

  /** A client acting as the owner of `token`. */
  forToken(token: string): SourcehostClient {
    return new SourcehostClient(this.transport, { kind: 'token', token });
  }

  /** A client without credentials (public data, a small per-address rate limit). */
  anonymous(): SourcehostClient {
    return new SourcehostClient(this.transport, { kind: 'none' });
  }

  /**
   * The legacy authorizations and grants API with a username and password. Not offered in chat:
   * chat must never carry passwords.
   */
  withPassword(username: string, password: string, otp?: string): AuthorizationsApi {
    return new AuthorizationsApi(this.transport, {
      kind: 'basic',
      username,
      password,
      ...(otp ? { otp } : {}),
    });
  }

  /** The rate-limit window last reported for a token (`core` by default). */
  window(token: string | undefined, resource = 'core') {
    return this.transport.window(token ? { kind: 'token', token } : { kind: 'none' }, resource);
  }

  /** Closes the connection pools. */
  async close(): Promise<void> {
    await Promise.allSettled([this.transport.close(), this.oauth?.close()]);
  }
}
