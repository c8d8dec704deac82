/**
 * Linking a chat user to their source-host account with the OAuth web flow: {@link SourceLinker.begin}
 * hands out an authorize link (client id, `redirect_uri` = public URL + callback path, minimal scope,
 * a single-use unguessable `state` bound to the user and conversation, PKCE S256, 10 minutes);
 * {@link SourceLinker.complete} handles the callback: authorize errors, the code exchange (whose
 * errors come with HTTP 200), the granted scopes (maybe fewer than asked), the account's login; it
 * stores the token in the vault, tells the chat, and runs again the command that needed the link.
 */
import type { Logger } from 'pino';
import type { ChatUser, Invocation } from '../core/command';
import { parseConversationId } from '../core/conversation';
import type { CardSurface, Dispatcher } from '../core/dispatch';
import type { Messengers } from '../core/messenger';
import type { Card, DraftCard } from '../core/reply';
import { missingScopes, OAuthTokenError, pkcePair, type SourcehostFactory } from '../services/sourcehost';
import {
  LINK_TTL_SECONDS,
  type PendingCommand,
  type PendingLink,
  type PendingLinkStore,
} from '../store/links';
import type { PushAccessCache } from '../store/links-permissions';
import type { CredentialVault } from '../store/vault';

/** Path of the OAuth callback on Deckhand's web server. */
export const OAUTH_CALLBACK_PATH = '/oauth/source/callback';

/** How a callback ended, for the result page. */
export type LinkOutcome =
  | { kind: 'linked'; login: string; scopes: string[]; missing: string[] }
  | { kind: 'expired' }
  | { kind: 'denied' }
  | { kind: 'mismatch' }
  | { kind: 'suspended' }
  | { kind: 'failed'; reason: string };

/** What {@link SourceLinker} needs. */
export interface SourceLinkerDeps {
  sourcehost: SourcehostFactory;
  pending: PendingLinkStore;
  vault: CredentialVault;
  pushCache: PushAccessCache<unknown>;
  /** Deckhand's public base URL (known once the web server listens). */
  publicUrl(): string;
  logger: Logger;
}

/** What a link request is for. */
export interface LinkRequest {
  user: ChatUser;
  conversationId: string;
  isPrivate: boolean;
  scopes: readonly string[];
  replay?: PendingCommand;
}

/** The source-host OAuth web flow. */
export class SourceLinker {
  private dispatcher: Dispatcher<unknown> | undefined;
  private messengers: Messengers | undefined;

  constructor(private readonly deps: SourceLinkerDeps) {}

  /** Connects the dispatcher that posts results and replays commands (created after the services). */
  attach(dispatcher: Dispatcher<unknown>, messengers: Messengers): void {
    this.dispatcher = dispatcher;
    this.messengers = messengers;
  }

  /** True when an OAuth application is configured. */
  get configured(): boolean {
    return this.deps.sourcehost.oauth !== undefined;
  }

  /** The callback URL (`redirect_uri`). */
  redirectUri(): string {
    return `${this.deps.publicUrl().replace(/\/+$/, '')}${OAUTH_CALLBACK_PATH}`;
  }

  /** Creates a pending link and returns the authorize address (valid {@link LINK_TTL_SECONDS}). */
  async begin(request: LinkRequest): Promise<{ url: string; expiresAt: number }> {
    const oauth = this.deps.sourcehost.oauth;
    if (!oauth) throw new Error('no OAuth application configured');
    const { verifier, challenge } = pkcePair();
    const redirectUri = this.redirectUri();
    const link: PendingLink = {
      owner: { platform: request.user.platform, workspace: request.user.workspace, id: request.user.id },
      name: request.user.name,
      conversationId: request.conversationId,
      isPrivate: request.isPrivate,
      scopes: [...request.scopes],
      codeVerifier: verifier,
      redirectUri,
      ...(request.replay ? { replay: request.replay } : {}),
      createdAt: Date.now(),
    };
    const state = await this.deps.pending.create(link);
    const url = oauth.authorizeUrl({ redirectUri, scopes: request.scopes, state, codeChallenge: challenge });
    return { url, expiresAt: link.createdAt + LINK_TTL_SECONDS * 1000 };
  }

  /** Handles the callback's query; never throws (the page shows the outcome). */
  async complete(query: URLSearchParams): Promise<LinkOutcome> {
    const state = query.get('state') ?? '';
    let pending: PendingLink | undefined;
    try {
      pending = await this.deps.pending.take(state);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'pending OAuth link unreadable');
    }
    if (!pending) return { kind: 'expired' };
    const error = query.get('error');
    if (error) return this.refused(pending, error);
    const code = query.get('code');
    if (!code) return { kind: 'failed', reason: 'The source host sent no code.' };
    try {
      return await this.link(pending, code);
    } catch (failure) {
      if (failure instanceof OAuthTokenError && failure.error === 'redirect_uri_mismatch') {
        await this.tell(pending, mismatchCard());
        return { kind: 'mismatch' };
      }
      const reason = failure instanceof OAuthTokenError ? failure.description || failure.error : undefined;
      this.deps.logger.warn({ err: failure }, 'OAuth code exchange failed');
      await this.tell(pending, {
        text: `Linking your source-host account failed: ${reason ?? 'the source host could not be reached'}. Nothing was linked; run /link source to try again.`,
        status: 'danger',
      });
      return { kind: 'failed', reason: reason ?? 'The source host could not be reached.' };
    }
  }

  private async link(pending: PendingLink, code: string): Promise<LinkOutcome> {
    const oauth = this.deps.sourcehost.oauth;
    if (!oauth) return { kind: 'failed', reason: 'No OAuth application is configured.' };
    const granted = await oauth.exchange({
      code,
      redirectUri: pending.redirectUri,
      codeVerifier: pending.codeVerifier,
    });
    const me = await this.deps.sourcehost.forToken(granted.accessToken).account.me();
    await this.deps.vault.put(pending.owner, 'source', {
      secret: { token: granted.accessToken },
      meta: { login: me.login, scopes: granted.scopes, asked: pending.scopes },
    });
    await this.deps.pushCache.clear(pending.owner);
    const missing = missingScopes(granted.scopes, pending.scopes);
    const lines = [`${pending.name} linked the source-host account ${me.login}.`];
    if (missing.length) {
      lines.push(
        `Fewer permissions were granted than asked (missing: ${missing.join(', ')}); commands that need them will ask again.`,
      );
    }
    await this.tell(pending, {
      title: 'Source-host account linked',
      text: lines.join('\n'),
      fields: [{ label: 'Scopes', value: granted.scopes.join(', ') || '(none: public data only)' }],
      status: 'success',
    });
    if (pending.replay) await this.replay(pending, pending.replay);
    return { kind: 'linked', login: me.login, scopes: granted.scopes, missing };
  }

  private async refused(pending: PendingLink, error: string): Promise<LinkOutcome> {
    if (error === 'access_denied') {
      await this.tell(pending, {
        text: `${pending.name} declined the source-host authorization, so nothing was linked. Run /link source again if that was a mistake.`,
        status: 'warning',
      });
      return { kind: 'denied' };
    }
    if (error === 'redirect_uri_mismatch') {
      await this.tell(pending, mismatchCard());
      return { kind: 'mismatch' };
    }
    if (error === 'application_suspended') {
      await this.tell(pending, {
        text: "The source host has suspended Deckhand's OAuth application, so nothing was linked. Tell an admin.",
        status: 'danger',
      });
      return { kind: 'suspended' };
    }
    return { kind: 'failed', reason: `The source host answered ${error}.` };
  }

  /** Posts a card to the conversation the link was asked in. */
  private async tell(pending: PendingLink, card: DraftCard): Promise<void> {
    const dispatcher = this.dispatcher;
    if (!dispatcher) return;
    try {
      await dispatcher.post(
        pending.conversationId,
        parseConversationId(pending.conversationId).platform,
        card,
      );
    } catch (error) {
      this.deps.logger.warn(
        { err: error, conversation: pending.conversationId },
        'could not post the link result',
      );
    }
  }

  /** Runs the command that needed the link again, as its user, where it was run. */
  private async replay(pending: PendingLink, command: PendingCommand): Promise<void> {
    const dispatcher = this.dispatcher;
    const messengers = this.messengers;
    if (!dispatcher || !messengers) return;
    const conversation = parseConversationId(pending.conversationId);
    const invocation: Invocation = {
      user: { ...pending.owner, platform: conversation.platform, name: pending.name },
      conversation,
      conversationId: pending.conversationId,
      isPrivate: pending.isPrivate,
    };
    // A worker can only post in the conversation: a private answer is posted there only when the
    // conversation itself is private; in a channel the user is told to ask again.
    const surface: CardSurface = {
      reply: (card) => {
        const { visibility, ...rest } = card;
        const shown: Card =
          visibility !== 'private' || pending.isPrivate
            ? rest
            : {
                text: `${pending.name}: the answer to /${command.command} is private; run it again to see it.`,
                status: 'info',
              };
        return messengers.for(conversation.platform).post(pending.conversationId, shown);
      },
      update: (handle, card) => messengers.for(handle.platform).update(handle, card),
    };
    try {
      await dispatcher.handleStructured(command.command, command.args, invocation, surface);
    } catch (error) {
      this.deps.logger.warn({ err: error, command: command.command }, 'could not replay the command');
    }
  }
}

function mismatchCard(): DraftCard {
  return {
    text: "The source host refused Deckhand's callback address (redirect_uri mismatch), so nothing was linked. An admin must make PUBLIC_URL match the OAuth application's callback URL.",
    status: 'danger',
  };
}
