/**
 * Linking a chat user to their source-host account with the OAuth web flow: {@link SourceLinker.begin}
 * hands out a Deckhand start link for a pending link (a single-use unguessable `state` bound to the
 * user and conversation, PKCE S256, minimal scope, 10 minutes); opening that link only shows who
 * asked for it ({@link SourceLinker.preview}: "you are linking your account to <platform> user ada in
 * workspace T1"), because a forwarded start link would otherwise link whoever opens it to the
 * requester; {@link SourceLinker.start}, when the person confirms (once, a POST checked against
 * cross-site forgery by the routes), gives the browser a random HttpOnly cookie, remembers its hash,
 * and sends it on to the source host's authorize page (client id, `redirect_uri` = public URL +
 * callback path, `state`); {@link SourceLinker.complete} handles the callback: only in the browser
 * holding the cookie (so an authorize link forwarded to someone else links nothing), then authorize
 * errors, the code exchange (whose errors come with HTTP 200), the granted scopes (maybe fewer than
 * asked), the account's login; it stores the token in the vault, tells the chat which chat user the
 * account was linked to, and runs again the command that needed the link.
 *
 * The source host itself only sends `code` and `state` back to the callback ("If `state` differs
 * from what you sent, abort": specs/sourcehost/README.md §3, from GitHub's "Authorizing OAuth apps"
 * web application flow); tying `state` to the browser is the client's job (RFC 6749 §10.12).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { CardPublishing } from '../core/card-publisher';
import type { CardSurface } from '../core/card-surface';
import type { ChatUser, Invocation } from '../core/command';
import type { CommandRunner } from '../core/command-runner';
import { type Platform, parseConversationId } from '../core/conversation';
import type { AccountLinker } from '../core/linking';
import type { Messengers } from '../core/messenger';
import type { Card, DraftCard } from '../core/reply';
import { type Translator, translator } from '../i18n/translate';
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

/** Path prefix of the start links Deckhand hands out in the chat (`/oauth/source/start/<state>`). */
export const OAUTH_START_PATH = '/oauth/source/start/';

/** Where the browser cookie is sent: the start link and the callback only. */
const COOKIE_PATH = '/oauth/source/';

/** How people call a chat platform and, where a user's name is only unique in one, its workspace. */
export interface PlatformWords {
  /** "Ada's platform": the name people read. */
  displayName: string;
  /** What its people call a workspace (`server`), when it has them. */
  workspaceWord?: string;
}

/** The chat user a pending link is for, as the confirmation page names them. */
function requesterOf(
  pending: PendingLink,
  wordsOf: (platform: Platform) => PlatformWords | undefined,
): string {
  const platform = pending.owner.platform;
  const words = wordsOf(platform);
  const user = `${words?.displayName ?? platform} user ${pending.name}`;
  const word = words?.workspaceWord;
  const workspace = pending.owner.workspace;
  return word && workspace && workspace !== '@me' ? `${user} in ${word} ${workspace}` : user;
}

/** The name of the browser cookie of the link with this `state` (one per link, so two can run). */
export function browserCookieName(state: string): string {
  return `dh_link_${createHash('sha256').update(state).digest('hex').slice(0, 16)}`;
}

/** What opening a start link shows: the confirmation, or why it cannot be used. */
export type PreviewOutcome =
  | {
      kind: 'confirm';
      /** Who asked for the link: "<platform> user ada in workspace T1". */
      requester: string;
      scopes: string[];
      /** Origin of the source host's authorize page (the confirmation's form leads there). */
      authorizeOrigin: string;
      /** Seconds the link stays valid. */
      expiresIn: number;
    }
  | { kind: 'expired' }
  | { kind: 'used' };

/** What confirming a start link led to. */
export type StartOutcome =
  | { kind: 'redirect'; url: string; setCookie: string }
  | { kind: 'expired' }
  | { kind: 'used' };

/** How a callback ended, for the result page. */
export type LinkOutcome =
  | { kind: 'linked'; login: string; chatUser: string; scopes: string[]; missing: string[] }
  | { kind: 'expired' }
  /** The callback came to a browser without the start link's cookie: nothing linked. */
  | { kind: 'wrong-browser' }
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
  /** The words for a chat platform (its descriptor's), for "<platform> user ada in workspace T1". */
  platformWords?: (platform: Platform) => PlatformWords | undefined;
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

/** How a finished link reaches the chat: its outcome posted, the command that waited run again. */
export interface LinkChat {
  /** Posts the outcome in the conversation the link was asked in. */
  publisher: Pick<CardPublishing, 'post'>;
  /** Runs again the command that needed the link. */
  runner: Pick<CommandRunner<unknown>, 'handleStructured'>;
  /** Posts the replayed command's replies (rendered already) in its conversation. */
  messengers: Messengers;
  /** A conversation's language (`/language --here`), for the outcome's words; English when absent. */
  language?(conversationId: string): Promise<string | undefined>;
}

/** The source-host OAuth web flow. */
export class SourceLinker implements AccountLinker {
  constructor(private readonly deps: SourceLinkerDeps) {}

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
    const { verifier } = pkcePair();
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
    const url = `${this.deps.publicUrl().replace(/\/+$/, '')}${OAUTH_START_PATH}${state}`;
    return { url, expiresAt: link.createdAt + LINK_TTL_SECONDS * 1000 };
  }

  /** The pending link of `state`, or undefined when it is gone or cannot be read (logged). */
  private async peek(state: string): Promise<PendingLink | undefined> {
    try {
      return await this.deps.pending.peek(state);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'pending OAuth link unreadable');
      return undefined;
    }
  }

  /**
   * Reads a start link without using it, for the confirmation page: who asked for the link, and
   * whether it can still be used. Nothing is bound, so a link preview (a chat's unfurler) or a
   * person who is not the requester changes nothing by opening it.
   */
  async preview(state: string): Promise<PreviewOutcome> {
    const oauth = this.deps.sourcehost.oauth;
    const pending = await this.peek(state);
    if (!pending || !oauth) return { kind: 'expired' };
    if (await this.deps.pending.isBound(state)) return { kind: 'used' };
    const authorize = oauth.authorizeUrl({
      redirectUri: pending.redirectUri,
      scopes: pending.scopes,
      state,
      codeChallenge: sha256(pending.codeVerifier).toString('base64url'),
    });
    return {
      kind: 'confirm',
      requester: requesterOf(pending, this.deps.platformWords ?? (() => undefined)),
      scopes: [...pending.scopes],
      authorizeOrigin: new URL(authorize).origin,
      expiresIn: Math.max(1, Math.ceil((pending.createdAt + LINK_TTL_SECONDS * 1000 - Date.now()) / 1000)),
    };
  }

  /**
   * Confirms a start link (once): binds the pending link to this browser with a fresh random cookie
   * (its SHA-256 kept beside the link) and returns the source host's authorize address.
   */
  async start(state: string): Promise<StartOutcome> {
    const oauth = this.deps.sourcehost.oauth;
    const pending = await this.peek(state);
    if (!pending || !oauth) return { kind: 'expired' };
    const seconds = (pending.createdAt + LINK_TTL_SECONDS * 1000 - Date.now()) / 1000;
    const token = randomBytes(32).toString('base64url');
    if (!(await this.deps.pending.bind(state, sha256(token).toString('hex'), seconds)))
      return { kind: 'used' };
    const url = oauth.authorizeUrl({
      redirectUri: pending.redirectUri,
      scopes: pending.scopes,
      state,
      // PKCE S256 (RFC 7636 §4.2): BASE64URL(SHA256(verifier)), as pkcePair made it.
      codeChallenge: sha256(pending.codeVerifier).toString('base64url'),
    });
    return { kind: 'redirect', url, setCookie: this.cookie(state, token, Math.ceil(seconds)) };
  }

  /** The `Set-Cookie` value that removes the browser cookie of `state`. */
  clearCookie(state: string): string {
    return this.cookie(state, '', 0);
  }

  private cookie(state: string, value: string, maxAge: number): string {
    const secure = this.deps.publicUrl().startsWith('https:') ? '; Secure' : '';
    return `${browserCookieName(state)}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
  }

  /**
   * Handles the callback's query and the browser's cookie for its `state` (from
   * {@link browserCookieName}); never throws (the page shows the outcome). The outcome is told in
   * the chat through `chat`.
   */
  async complete(
    query: URLSearchParams,
    browserToken: string | undefined,
    chat: LinkChat,
    /** The browser's reader, for the reason of a failure (shown on the page). */
    reader: Translator = translator('en'),
  ): Promise<LinkOutcome> {
    const state = query.get('state') ?? '';
    let pending: PendingLink | undefined;
    let binding: string | undefined;
    try {
      [pending, binding] = await Promise.all([
        this.deps.pending.take(state),
        this.deps.pending.takeBinding(state),
      ]);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'pending OAuth link unreadable');
    }
    if (!pending) return { kind: 'expired' };
    const say = translator(await chat.language?.(pending.conversationId).catch(() => undefined));
    if (!sameBrowser(binding, browserToken)) {
      this.deps.logger.warn(
        {
          conversation: pending.conversationId,
          bound: binding !== undefined,
          cookie: browserToken !== undefined,
        },
        'OAuth callback in a browser that did not open the start link refused',
      );
      await this.tell(chat, pending, {
        text: say.t('oauth-chat-wrong-browser', pending.name),
        status: 'warning',
      });
      return { kind: 'wrong-browser' };
    }
    const error = query.get('error');
    if (error) return this.refused(chat, pending, error, say, reader);
    const code = query.get('code');
    if (!code) return { kind: 'failed', reason: reader.t('oauth-no-code') };
    try {
      return await this.link(chat, pending, code, say, reader);
    } catch (failure) {
      if (failure instanceof OAuthTokenError && failure.error === 'redirect_uri_mismatch') {
        await this.tell(chat, pending, mismatchCard(say));
        return { kind: 'mismatch' };
      }
      const reason = failure instanceof OAuthTokenError ? failure.description || failure.error : undefined;
      this.deps.logger.warn({ err: failure }, 'OAuth code exchange failed');
      await this.tell(chat, pending, {
        text: say.t('oauth-chat-failed', reason ?? say.t('oauth-chat-unreachable')),
        status: 'danger',
      });
      return { kind: 'failed', reason: reason ?? reader.t('oauth-unreachable') };
    }
  }

  private async link(
    chat: LinkChat,
    pending: PendingLink,
    code: string,
    say: Translator,
    reader: Translator,
  ): Promise<LinkOutcome> {
    const oauth = this.deps.sourcehost.oauth;
    if (!oauth) return { kind: 'failed', reason: reader.t('oauth-not-configured') };
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
    const platformName = this.deps.platformWords?.(pending.owner.platform)?.displayName;
    const chatUser = `${platformName ?? pending.owner.platform} user ${pending.name}`;
    const lines = [say.t('oauth-linked-text', me.login, chatUser)];
    if (missing.length) lines.push(say.t('oauth-chat-missing-scopes', missing.join(', ')));
    await this.tell(chat, pending, {
      title: say.t('oauth-chat-linked-title'),
      text: lines.join('\n'),
      fields: [
        {
          label: say.t('oauth-chat-scopes'),
          value: granted.scopes.join(', ') || say.t('oauth-chat-no-scopes'),
        },
      ],
      status: 'success',
      locale: say.language,
    });
    if (pending.replay) await this.replay(chat, pending, pending.replay, say);
    return { kind: 'linked', login: me.login, chatUser, scopes: granted.scopes, missing };
  }

  private async refused(
    chat: LinkChat,
    pending: PendingLink,
    error: string,
    say: Translator,
    reader: Translator,
  ): Promise<LinkOutcome> {
    if (error === 'access_denied') {
      await this.tell(chat, pending, { text: say.t('oauth-chat-denied', pending.name), status: 'warning' });
      return { kind: 'denied' };
    }
    if (error === 'redirect_uri_mismatch') {
      await this.tell(chat, pending, mismatchCard(say));
      return { kind: 'mismatch' };
    }
    if (error === 'application_suspended') {
      await this.tell(chat, pending, { text: say.t('oauth-chat-suspended'), status: 'danger' });
      return { kind: 'suspended' };
    }
    return { kind: 'failed', reason: reader.t('oauth-host-answered', error) };
  }

  /** Posts a card to the conversation the link was asked in. */
  private async tell(chat: LinkChat, pending: PendingLink, card: DraftCard): Promise<void> {
    try {
      await chat.publisher.post(pending.conversationId, card);
    } catch (error) {
      this.deps.logger.warn(
        { err: error, conversation: pending.conversationId },
        'could not post the link result',
      );
    }
  }

  /** Runs the command that needed the link again, as its user, where it was run. */
  private async replay(
    chat: LinkChat,
    pending: PendingLink,
    command: PendingCommand,
    say: Translator,
  ): Promise<void> {
    const messengers = chat.messengers;
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
                text: say.t('oauth-replay-private', pending.name, command.command),
                status: 'info',
              };
        return messengers.for(conversation.platform).post(pending.conversationId, shown);
      },
      update: (handle, card) => messengers.for(handle.platform).update(handle, card),
    };
    try {
      await chat.runner.handleStructured(command.command, command.args, invocation, surface);
    } catch (error) {
      this.deps.logger.warn({ err: error, command: command.command }, 'could not replay the command');
    }
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** True when the browser's cookie hashes to the binding (compared in constant time). */
function sameBrowser(binding: string | undefined, token: string | undefined): boolean {
  if (!binding || !token || !/^[0-9a-f]{64}$/.test(binding)) return false;
  return timingSafeEqual(Buffer.from(binding, 'hex'), sha256(token));
}

function mismatchCard(say: Translator): DraftCard {
  return { text: say.t('oauth-chat-mismatch'), status: 'danger' };
}
