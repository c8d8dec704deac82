/**
 * OAuth scopes: what each feature asks for, how granted scopes are read (comma-separated, already
 * normalised: implied scopes dropped), and which implied scopes a granted one covers.
 */

/** Scopes each feature needs. Linking itself only needs to read the profile. */
export const SCOPES = {
  /** `/link source`: who the user is (public repositories' permissions need no scope). */
  link: ['read:user'],
  /** A migration of the user's own repositories. */
  userMigration: ['repo'],
  /** A migration of an organization's repositories. */
  orgMigration: ['repo', 'admin:org'],
  /** Source imports. */
  imports: ['repo'],
} as const;

/** Scopes a granted scope includes (the service drops these when both are asked for). */
const IMPLIED: Record<string, readonly string[]> = {
  repo: ['repo:status', 'repo_deployment', 'public_repo', 'repo:invite', 'security_events'],
  user: ['read:user', 'user:email', 'user:follow'],
  'admin:org': ['write:org', 'read:org'],
  'write:org': ['read:org'],
  'admin:public_key': ['write:public_key', 'read:public_key'],
  'write:public_key': ['read:public_key'],
  'admin:repo_hook': ['write:repo_hook', 'read:repo_hook'],
  'write:repo_hook': ['read:repo_hook'],
  'admin:gpg_key': ['write:gpg_key', 'read:gpg_key'],
  'write:gpg_key': ['read:gpg_key'],
};

/** Reads a `scope` field or `X-OAuth-Scopes` header: `repo,gist` or `repo gist`. */
export function parseScopes(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The scopes of `needed` that `granted` does not cover (directly or implied). */
export function missingScopes(granted: readonly string[], needed: readonly string[]): string[] {
  const covered = new Set<string>();
  for (const scope of granted) {
    covered.add(scope);
    for (const implied of IMPLIED[scope] ?? []) covered.add(implied);
  }
  return needed.filter((scope) => !covered.has(scope));
}

/** `granted` plus `extra`, without duplicates, for a re-link that adds scopes. */
export function unionScopes(granted: readonly string[], extra: readonly string[]): string[] {
  return [...new Set([...granted, ...extra])];
}
