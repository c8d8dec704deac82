/**
 * Approvals by a second maintainer: a tool's protect policy (`/tool protect`) names actions
 * (`deploy`, `envvars`, `jobs-delete`); a protected command of that tool does not run when asked but
 * posts an approval card, and runs once enough different maintainers pressed Approve. The request
 * and its decisions are one record in one key; a decision is taken atomically there, so however many
 * presses arrive at once, the command runs at most once.
 */
import type { ChatUser, MessageHandle } from './command';

/** A tool's protect policy: which actions need approval, and by how many other maintainers. */
export interface ToolProtection {
  tool: string;
  /** Action words, e.g. `deploy`, `envvars`, `jobs-delete`. */
  actions: string[];
  /** How many different maintainers must approve (besides the requester). */
  approvers: number;
  /** Display name of who set it. */
  by: string;
  /** Unix ms. */
  at: number;
}

/** One decision on an approval card. */
export interface ApprovalDecision {
  kind: 'approved' | 'denied';
  /** `platform:workspace:id` of who decided. */
  key: string;
  /** Display name of who decided. */
  name: string;
  /** Unix ms. */
  at: number;
}

/** What an approval card asks for, and what has been decided on it. */
export interface ApprovalRecord {
  id: string;
  tool: string;
  command: string;
  /** Who asked. */
  requester: ChatUser;
  /** The requester's linked cross-platform identity (`source:<login>`), if any. */
  identity?: string;
  /** Where it was asked. */
  conversationId: string;
  /** The arguments it runs with, as JSON (exactly those shown when it was asked). */
  args: string;
  /** The question shown (secret arguments never in it). */
  question: string;
  /** What the command's target looked like when asked (re-checked before it runs). */
  target?: { label: string; version?: string };
  /** The change shown (a diff), if any. */
  preview?: { text: string; language?: string };
  /** The approval card, when its surface returned one. */
  handle?: MessageHandle;
  /** Its copies in the tool's other subscribed conversations. */
  copies?: MessageHandle[];
  /**
   * The language the card is written in, by conversation id (where it was asked, and each copy's):
   * every edit of a card is written in it. A conversation without one is edited in English.
   */
  languages?: Record<string, string>;
  /** How many approvals it needs. */
  approvers: number;
  /** It overrides a lock or freeze window: once approved it runs despite them. */
  override?: boolean;
  /** Unix ms: after this nothing runs. */
  expiresAt: number;
  /** `open` until enough approvals (`approved`) or one Deny (`denied`). */
  state: 'open' | 'approved' | 'denied';
  decisions: ApprovalDecision[];
}

/** What a decision did. */
export type DecideResult =
  /** Recorded; `record.state` says whether it is now approved, denied or still open. */
  | { kind: 'recorded'; record: ApprovalRecord }
  /** Already approved or denied before this decision: nothing changed. */
  | { kind: 'closed'; record: ApprovalRecord }
  /** This person already decided on it. */
  | { kind: 'duplicate'; record: ApprovalRecord }
  /** Expired or unknown. */
  | { kind: 'gone' };

/** Where protect policies and approval requests live (Redis: `src/store/approvals.ts`). */
export interface ApprovalStore {
  protect(protection: ToolProtection): Promise<void>;
  /** Removes the policy; resolves with the one removed, if any. */
  unprotect(tool: string): Promise<ToolProtection | undefined>;
  protection(tool: string): Promise<ToolProtection | undefined>;
  /** Stores an open request until its expiry. */
  open(record: ApprovalRecord): Promise<void>;
  load(id: string): Promise<ApprovalRecord | undefined>;
  /**
   * The tool's requests still open and not expired at `now`, oldest first, at most `limit` of them
   * (one read of the tool's index, then one per request).
   */
  pending(tool: string, options: { now: number; limit: number }): Promise<ApprovalRecord[]>;
  /** Adds a decision atomically (one key): the first decision that closes it wins. */
  decide(id: string, decision: ApprovalDecision): Promise<DecideResult>;
}

/** How long an approval waits by default: 30 minutes. */
export const APPROVAL_TTL_MS = 30 * 60_000;

/** `tool lock` → `tool-lock`: a command's name as an action word. */
export function actionWord(commandName: string): string {
  return commandName.trim().replace(/\s+/g, '-');
}

/** True when the action word covers the command: `envvars` covers `envvars set`, `jobs-delete` `jobs delete`. */
export function covers(word: string, commandName: string): boolean {
  const name = actionWord(commandName);
  return name === word || name.startsWith(`${word}-`);
}

/** True when the policy protects the command. */
export function isProtected(protection: ToolProtection | undefined, commandName: string): boolean {
  return protection?.actions.some((word) => covers(word, commandName)) ?? false;
}
