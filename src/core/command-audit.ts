/** What the audit trail is told of one side-effect command run or refused: who, what, how it ended, its card. */
import type { AnyCommand, Invocation, MessageHandle } from './command';

/** One entry of the audit trail: a side-effect command run or refused, secret arguments left out. */
export interface AuditEntry {
  invocation: Invocation;
  command: string;
  args: Record<string, unknown>;
  outcome: string;
  /** The user's linked identity, when it was read already (else the change recorder asks for it). */
  identity?: Promise<string | undefined>;
  /** The first card the run posted, if it posted one. */
  card?: MessageHandle;
}

/** Outcomes that are not a change: nothing is audited for them. */
const NOT_AUDITED = new Set(['confirm', 'approval', 'unchanged', 'approval_refused']);

/** Who a run is audited as: the presser, or the requester of an approved command (and their identity). */
export interface Audited {
  invocation: Invocation;
  approvedBy?: string;
  identity?: Promise<string | undefined>;
  /** The effect record's outcome, written while the run is audited (one round trip for both). */
  outcomeWritten?: Promise<void>;
  /** The first card the run posted (the change record's link to it). */
  card?: MessageHandle;
}

/**
 * The audit entry of a side-effect command's run or refusal (secret arguments left out, who approved
 * it added), or undefined for outcomes that are not a change.
 */
export function auditEntryOf<S>(
  command: AnyCommand<S>,
  args: Record<string, unknown>,
  audited: Audited,
  outcome: string,
): AuditEntry | undefined {
  if (NOT_AUDITED.has(outcome)) return undefined;
  const secret = new Set(command.secretArgs ?? []);
  const kept = Object.fromEntries(Object.entries(args).filter(([key]) => !secret.has(key)));
  if (audited.approvedBy) kept.approvedBy = audited.approvedBy;
  return {
    invocation: audited.invocation,
    command: command.name,
    args: kept,
    outcome,
    ...(audited.identity ? { identity: audited.identity } : {}),
    ...(audited.card ? { card: audited.card } : {}),
  };
}
