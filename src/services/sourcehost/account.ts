/** The authenticated account, repository permissions and rate-limit status. */
import {
  type AuthenticatedUser,
  AuthenticatedUserSchema,
  type RateLimitOverview,
  RateLimitOverviewSchema,
  type Repository,
  RepositorySchema,
} from './schemas';
import type { SourcehostAuth, SourcehostTransport } from './transport';

/** Calls about the account a token belongs to. */
export class AccountApi {
  constructor(
    private readonly transport: SourcehostTransport,
    private readonly auth: SourcehostAuth,
  ) {}

  /** `GET /user`: who the token belongs to (check it after every sign-in: accounts can switch). */
  me(): Promise<AuthenticatedUser> {
    return this.transport.json('GET', '/user', AuthenticatedUserSchema, { auth: this.auth, route: '/user' });
  }

  /** `GET /repos/{owner}/{repo}`: a repository, with what this account may do in it (`permissions`). */
  repository(owner: string, repo: string): Promise<Repository> {
    return this.transport.json('GET', `/repos/${enc(owner)}/${enc(repo)}`, RepositorySchema, {
      auth: this.auth,
      route: '/repos/{owner}/{repo}',
    });
  }

  /** `GET /rate_limit`: every resource category's window (does not count against the limit). */
  rateLimit(): Promise<RateLimitOverview> {
    return this.transport.json('GET', '/rate_limit', RateLimitOverviewSchema, {
      auth: this.auth,
      route: '/rate_limit',
    });
  }
}

/** URL-encodes one path segment. */
export function enc(segment: string | number): string {
  return encodeURIComponent(String(segment));
}
