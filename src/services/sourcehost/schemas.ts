/** Schemas of the source host's user, repository and rate-limit answers (GitHub REST shapes). */
import { z } from 'zod';

/** `simple-user`: an account (user or organization), as owner or sender. */
export const SimpleUserSchema = z.looseObject({
  login: z.string(),
  id: z.number(),
  type: z.string().optional(),
  html_url: z.string().optional(),
  site_admin: z.boolean().optional(),
});
/** An account on the source host. */
export type SimpleUser = z.output<typeof SimpleUserSchema>;

/** `GET /user`: the authenticated account. */
export const AuthenticatedUserSchema = SimpleUserSchema.extend({ name: z.string().nullish() });
/** The authenticated account. */
export type AuthenticatedUser = z.output<typeof AuthenticatedUserSchema>;

/** What the authenticated user may do in a repository. */
export const RepositoryPermissionsSchema = z.looseObject({
  admin: z.boolean(),
  push: z.boolean(),
  pull: z.boolean(),
  maintain: z.boolean().optional(),
  triage: z.boolean().optional(),
});

/** A repository (`repository`, `minimal-repository`, `simple-repository`: the fields Deckhand reads). */
export const RepositorySchema = z.looseObject({
  id: z.number(),
  name: z.string(),
  full_name: z.string(),
  private: z.boolean().optional(),
  html_url: z.string().optional(),
  owner: SimpleUserSchema.optional(),
  permissions: RepositoryPermissionsSchema.optional(),
});
/** A repository. */
export type Repository = z.output<typeof RepositorySchema>;

/** One rate-limit window (`rate-limit`). `used` is required by the spec, absent in the seed's example. */
export const RateLimitSchema = z.looseObject({
  limit: z.number(),
  remaining: z.number(),
  reset: z.number(),
  used: z.number().optional(),
});
/** One rate-limit window. */
export type RateLimit = z.output<typeof RateLimitSchema>;

/** `GET /rate_limit`: every resource category (`core`, `search`, `graphql`, …) and the old `rate`. */
export const RateLimitOverviewSchema = z.looseObject({
  resources: z.record(z.string(), RateLimitSchema),
  rate: RateLimitSchema.optional(),
});
/** The rate-limit status of every resource category. */
export type RateLimitOverview = z.output<typeof RateLimitOverviewSchema>;
