/** What the command runner audits of a side-effect command, and how it keeps track while the command runs. */
import type { Invocation } from './command';

/** One entry of the audit trail: a side-effect command run or refused, secret arguments left out. */
export interface AuditEntry {
  invocation: Invocation;
  command: string;
  args: Record<string, unknown>;
  outcome: string;
  /** The user's linked identity, read while the command ran (else the audit hook reads it). */
  identity?: Promise<string | undefined>;
}

/** Outcomes that are not a change: nothing is audited for them. */
export const NOT_AUDITED = new Set(['confirm', 'approval', 'unchanged', 'approval_refused']);

/** Who a run is audited as: the presser, or the requester of an approved command (and their identity). */
export interface Audited {
  invocation: Invocation;
  approvedBy?: string;
  identity?: Promise<string | undefined>;
  /** The effect record's outcome, written while the run is audited (one round trip for both). */
  outcomeWritten?: Promise<void>;
}
