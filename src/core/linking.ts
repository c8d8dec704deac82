/**
 * Ports for the two web flows commands start: linking a source-host account (OAuth) and entering a
 * secret on a one-time page. Commands depend on these interfaces; `src/web/` implements them and
 * `src/wiring/` joins the two, so `commands/` and `src/web/` never import each other.
 */
import type { ChatUser } from './command';

/** A command to run again once the user is linked. */
export interface ReplayCommand {
  command: string;
  args: Record<string, unknown>;
}

/** What starting an account link needs. */
export interface AccountLinkRequest {
  user: ChatUser;
  conversationId: string;
  isPrivate: boolean;
  scopes: readonly string[];
  replay?: ReplayCommand;
}

/** The source-host OAuth web flow, as commands use it (`/link source`). */
export interface AccountLinker {
  /** False when no OAuth application is configured. */
  readonly configured: boolean;
  /** Creates a pending link; resolves with the authorize address and when it expires. */
  begin(request: AccountLinkRequest): Promise<{ url: string; expiresAt: number }>;
}

/**
 * What a credential's service said when asked before the credential is stored: accepted, or not
 * (`outage` when the service failed or could not be reached rather than refusing it). The message
 * is in Deckhand's words and never contains the credential.
 */
export type CredentialVerdict = { ok: true } | { ok: false; outage: boolean; message: string; hint: string };

/** Which credential a secret page asks for. */
export type SecretFormKind = 'tool' | 'media' | 'calendar';

/** One-time secret entry pages, as commands use them (`/link media`, `/token set` without a value). */
export interface SecretFormIssuer {
  /** Creates a page for `user`; resolves with its address. */
  begin(input: {
    user: ChatUser;
    conversationId: string;
    isPrivate: boolean;
    kind: SecretFormKind;
    tool?: string;
  }): Promise<string>;
}
