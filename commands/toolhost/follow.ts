/** Posting the card of work a command started or found, and following that work on it. */
import type { Invocation, MessageHandle } from '../../src/core/command';
import { starterOf } from '../../src/core/personal-notify';
import type { DraftCard } from '../../src/core/reply';
import type { WatchKindName } from '../../src/core/watch';
import type { ToolhostClient } from '../../src/services/toolhost';
import { withWarnings } from '../format';
import type { ToolhostServices } from './context';

/** The part of a command's context that posting and following uses. */
export interface FollowContext {
  args: { tool: string };
  services: Pick<ToolhostServices, 'watches'>;
  invocation: Invocation;
  reply(card: DraftCard): Promise<MessageHandle | undefined>;
}

/** What to follow on the posted card: the work's kind and id, and whether to tell its starter when it ends. */
export interface FollowedWork {
  kind: WatchKindName;
  id: string;
  /** True when the invoking user started the work (told when it ends, by their `/notify` settings). */
  started?: boolean;
  /** The language the card is written in. */
  language?: string | undefined;
}

/**
 * Posts `card` with the tool's warnings and, once posted, keeps it updated while `work` runs (not
 * when `work` is false). The card is the command's answer, so the command returns undefined.
 */
export async function postFollowing(
  { args, services, invocation, reply }: FollowContext,
  client: ToolhostClient,
  card: DraftCard,
  work: FollowedWork | false,
): Promise<undefined> {
  const handle = await reply(withWarnings(card, client));
  if (!handle || !work) return undefined;
  const { kind, id, started, language } = work;
  await services.watches.start({
    kind,
    tool: args.tool,
    id,
    handle,
    ...(started && { starter: starterOf(invocation) }),
    ...(language && { language }),
  });
  return undefined;
}
