import type { AccessPolicy, PushAccess, ToolSource } from '../src/core/access';
import type { ApprovalStore } from '../src/core/approvals';
import type { ChangeGuardStore } from '../src/core/change-guard';
import type { MessageHandle } from '../src/core/command';
import type { FailureClaims } from '../src/core/failure-claim';
import type { AccountLinker, SecretFormIssuer } from '../src/core/linking';
import type { SecretRegistrar, SecretScrubber } from '../src/secrets';
import type { SourcehostFactory } from '../src/services/sourcehost';
import type { AuditLog } from '../src/store/audit';
import type { ImportFollowers } from '../src/store/links-imports';
import type { PushAccessCache } from '../src/store/links-permissions';
import type { CredentialVault, VaultOwner } from '../src/store/vault';
import type { Credentials } from '../src/store/vault-credentials';

/** A request to follow a migration until it is exported or failed. */
export interface MigrationWatchRequest {
  /** `@me` or the organization. */
  owner: string;
  id: number;
  /** Whose linked account reads it (and who is told). */
  user: VaultOwner & { name: string };
  conversationId: string;
  /** True when the conversation is private (the archive link may be posted there). */
  isPrivate: boolean;
  /** The status card to keep up to date. */
  handle?: MessageHandle;
}

/**
 * Linked accounts and stored credentials, for commands (`services.accounts`). The calendar and media
 * commands read their credentials with `services.accounts.credentials.calendar(invocation.user)` /
 * `.media(invocation.user)` (the user's own, else the configured shared account).
 */
export interface AccountServices {
  /** Encrypted per-user credentials. */
  vault: CredentialVault;
  /** The secret index: registers deploy tokens and secret envvar values so every process masks them. */
  secrets: SecretRegistrar & SecretScrubber;
  /** Typed reads of the vault, with the configured shared fallbacks. */
  credentials: Credentials;
  /** The source host client. */
  sourcehost: SourcehostFactory;
  /** Where a tool's source is (its components configuration's repository, else its latest build's). */
  toolSource(tool: string): Promise<ToolSource | undefined>;
  /** The OAuth web flow (`/link source`). */
  linker: AccountLinker;
  /** One-time secret entry pages. */
  secretForms: SecretFormIssuer;
  /** Conversations following source imports. */
  followers: ImportFollowers;
  /** Cached push-access results (cleared on link and unlink). */
  pushCache: PushAccessCache<PushAccess>;
  /** The permission policy (for /whoami). */
  access: AccessPolicy;
  /** The audit trail (for /audit). */
  audit: AuditLog;
  /** Tool locks and freeze windows (`/tool lock`, `/tool freeze`). */
  guards: ChangeGuardStore;
  /** Protect policies and approval requests (`/tool protect`). */
  approvals: ApprovalStore;
  /** Announced failures and who is on them ("I'm on it"). */
  failures: FailureClaims;
  /** True when source-host webhooks are received (a webhook secret is set). */
  webhooksConfigured: boolean;
  /** Follows a migration on the queue and announces its end once. */
  followMigration(request: MigrationWatchRequest): Promise<void>;
}
