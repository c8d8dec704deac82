/**
 * The change record: the one description of a state-changing command (`sideEffect: true`) once its
 * outcome is known. The command runner hands every such run or refusal to its `audit` hook, which
 * {@link changeRecorder} turns into exactly one record; the audit trail (`/audit`) stores and shows
 * it, and every later reader (announcements, an operations-log bridge) reads the same record rather
 * than describing what happened again.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ChatUser, Invocation } from './command';
import type { AuditEntry } from './command-audit';

/**
 * One change made through Deckhand, as stored in the audit stream. Stable shape: readers outside the
 * bot (an operations-log bridge) rely on these fields.
 */
export interface ChangeRecord {
  /**
   * The change's id: the same for every attempt at one platform delivery (a worker that died and a
   * retry describe one change): a digest of the delivery key and the command, random when the
   * delivery has no key. URL-safe, 22 characters.
   */
  id: string;
  /** When the outcome was known, Unix ms. */
  at: number;
  /** The chat platform it was typed on (a name from the table of platforms). */
  platform: string;
  /** Who: `platform:workspace:id` of the chat user. */
  user: string;
  /** Who: the chat user's display name. */
  name: string;
  /**
   * Who, across platforms: the linked source-host account (`source:<login>`) when the user linked
   * one; absent otherwise.
   */
  identity?: string;
  /** Where it was typed: the conversation id (`<platform>:<workspace>:<channel>`). */
  conversationId: string;
  /** What: the command's name (`deploy`, `tool lock`, `envvars set`). */
  command: string;
  /** The tool it acted on, if any. */
  tool?: string;
  /** What, in detail: the arguments, without the secret ones. */
  args: Record<string, unknown>;
  /**
   * How it ended: `ok`, `deferred` (waits for the user), `pending`, or the error code of a refusal or
   * failure (`permission`, `locked`, `usage`, `upstream`, `internal`, …).
   */
  outcome: string;
  /**
   * The card the command answered with, when it posted one: the platform's reference to the message
   * (`ref`: the platform's message reference) in its conversation, as Deckhand
   * stores message handles; a reader turns it into a link in the platform's own form.
   */
  card?: CardLink;
}

/** Where a change record's card is: its platform, conversation and message reference. */
export interface CardLink {
  platform: string;
  conversationId: string;
  ref: Record<string, string>;
}

/** What {@link changeRecorder} needs. */
export interface ChangeRecorderDeps {
  /** The linked cross-platform identity of a chat user (`source:<login>`), if any. */
  identityOf(user: ChatUser): Promise<string | undefined>;
  /** Stores the record (the audit stream). */
  write(record: ChangeRecord): Promise<void>;
  /** The clock (ms). */
  now?: () => number;
}

/** `platform:workspace:id`: the chat user as the record names them. */
export function userKeyOf(user: ChatUser): string {
  return `${user.platform}:${user.workspace}:${user.id}`;
}

/** The id of the change `command` makes for `invocation` (see {@link ChangeRecord.id}). */
export function changeIdOf(invocation: Invocation, command: string): string {
  if (!invocation.key) return randomBytes(16).toString('base64url');
  return createHash('sha256').update(`${invocation.key}\n${command}`).digest('base64url').slice(0, 22);
}

/** The record of one event, with the identity found for its user. */
export function changeRecordOf(event: AuditEntry, identity: string | undefined, at: number): ChangeRecord {
  const { invocation, command, args, outcome, card } = event;
  return {
    id: changeIdOf(invocation, command),
    at,
    platform: invocation.user.platform,
    user: userKeyOf(invocation.user),
    name: invocation.user.name,
    ...(identity ? { identity } : {}),
    conversationId: invocation.conversationId,
    command,
    ...(typeof args.tool === 'string' ? { tool: args.tool } : {}),
    args,
    outcome,
    ...(card
      ? { card: { platform: card.platform, conversationId: card.conversationId, ref: card.ref } }
      : {}),
  };
}

/**
 * The command runner's audit hook: one {@link ChangeRecord} per event. An identity that cannot be read
 * (the vault unavailable) leaves the field out rather than losing the record.
 */
export function changeRecorder(deps: ChangeRecorderDeps): (event: AuditEntry) => Promise<void> {
  const now = deps.now ?? Date.now;
  return async (event) => {
    const identity = await (event.identity ?? deps.identityOf(event.invocation.user)).catch(() => undefined);
    await deps.write(changeRecordOf(event, identity, now()));
  };
}
