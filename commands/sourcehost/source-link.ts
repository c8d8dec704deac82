import type { Invocation } from '../../src/core/command';
import type { DraftCard } from '../../src/core/reply';
import { missingScopes, type SourcehostClient, unionScopes } from '../../src/services/sourcehost';
import type { SourcehostServices } from './context';
import { linkSourceCard } from './link-source';

/** The user's source-host client, or the card that asks them to link (or re-link with more scope). */
export type SourceAccess = { client: SourcehostClient; login: string } | { card: DraftCard };

/**
 * The invoking user's source-host client with at least `scopes`. Without a linked account, or with
 * too few scopes, a private card with an authorize link that asks for them; the command (`command`
 * with `args`) runs again once linked.
 */
export async function sourceAccess(
  services: SourcehostServices,
  invocation: Invocation,
  scopes: readonly string[],
  replay: { command: string; args: Record<string, unknown> },
): Promise<SourceAccess> {
  const linked = await services.accounts.credentials.source(invocation.user);
  const missing = linked ? missingScopes(linked.scopes, scopes) : [...scopes];
  if (linked && missing.length === 0) {
    return { client: services.accounts.sourcehost.forToken(linked.token), login: linked.login };
  }
  const reason = linked
    ? `/${replay.command} needs more permissions than your link to ${linked.login} has (missing: ${missing.join(', ')}): link again to add them.`
    : `/${replay.command} acts with your own source-host account, which is not linked yet.`;
  const wanted = unionScopes(unionScopes(['read:user'], linked?.scopes ?? []), scopes);
  return { card: await linkSourceCard(services, invocation, wanted, reason, replay) };
}
