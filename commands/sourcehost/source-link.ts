import type { z } from 'zod';
import { commandRef } from '../../src/core/action-ref';
import type {
  CommandContext,
  CommandDeclaration,
  CommandDefinition,
  Invocation,
} from '../../src/core/command';
import type { DraftCard } from '../../src/core/reply';
import type { Translator } from '../../src/i18n/translate';
import { missingScopes, type SourcehostClient, unionScopes } from '../../src/services/sourcehost';
import { command, type SourcehostServices } from './context';
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
  const reason = (say: Translator) =>
    linked
      ? say.t('source-link-more-scopes', `/${replay.command}`, linked.login, missing.join(', '))
      : say.t('source-link-not-linked', `/${replay.command}`);
  const wanted = unionScopes(unionScopes(['read:user'], linked?.scopes ?? []), scopes);
  return { card: await linkSourceCard(services, invocation, wanted, reason, replay) };
}

/** What the `run` of a {@link linkedCommand} receives: the command's context and the user's client. */
export type LinkedCommandContext<A> = CommandContext<A, SourcehostServices> & {
  client: SourcehostClient;
  login: string;
};

/** A {@link linkedCommand}'s declaration: the scopes it needs of the user's link, and its `run`. */
export type LinkedCommandDeclaration<Schema extends z.ZodObject> = Omit<
  CommandDeclaration<Schema, SourcehostServices>,
  'run'
> & {
  /** The scopes of the user's link the command needs for these arguments. */
  scopes(args: z.infer<Schema>): readonly string[];
  run(ctx: LinkedCommandContext<z.infer<Schema>>): Promise<DraftCard | undefined>;
};

/**
 * A command that acts with the invoking user's own source-host account: `run` receives its client.
 * Without a link with the scopes it needs, the answer is the card that asks for them (see
 * {@link sourceAccess}), and the command runs again once linked.
 */
export function linkedCommand<Schema extends z.ZodObject>(
  declaration: LinkedCommandDeclaration<Schema>,
): CommandDefinition<Schema, SourcehostServices> {
  const { scopes, ...rest } = declaration;
  const defined: CommandDefinition<Schema, SourcehostServices> = command<Schema>({
    ...rest,
    async run(ctx) {
      const replay = commandRef(defined, ctx.args as z.input<Schema>);
      const access = await sourceAccess(ctx.services, ctx.invocation, scopes(ctx.args), replay);
      if ('card' in access) return access.card;
      return declaration.run({ ...ctx, ...access });
    },
  });
  return defined;
}
