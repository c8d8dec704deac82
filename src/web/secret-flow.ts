/**
 * The one-time secret entry form as an alternative to typing a credential into chat: the bot sends a
 * private link (`/secrets/<id>`, 10 minutes, single use); the page asks for the credential; the
 * submission must carry the form's CSRF token both as a hidden field and as the cookie set with the
 * page (and come from Deckhand's own origin when the browser says); the credential's format is
 * checked, then its service is asked as `/link` does (a refused or uncheckable one is not stored and
 * the form stays open with the reason); it is stored in the vault, and the chat is told (without the
 * value).
 */
import type { Logger } from 'pino';
import type { CardPublishing } from '../core/card-publisher';
import type { ChatUser } from '../core/command';
import { DeckhandError } from '../core/errors';
import type { CredentialVerdict, SecretFormIssuer } from '../core/linking';
import { type Translator, translator } from '../i18n/translate';
import type { SecretFormKind, SecretFormSession, SecretFormStore } from '../store/links-secret-forms';
import { VaultLockedError } from '../store/sealer';
import type { CredentialVault } from '../store/vault';
import {
  type CredentialValues,
  checkCredential,
  describeCredential,
  saveCredential,
} from '../store/vault-credentials';

/** Path prefix of the secret forms. */
export const SECRET_FORM_PATH = '/secrets/';

/** One input of a secret form. */
export interface SecretField {
  name: keyof CredentialValues;
  label: string;
  secret: boolean;
  autocomplete: string;
}

const ENGLISH = translator('en');

/** The inputs of each kind of form (labels in English; the page writes them in its reader's language). */
export const SECRET_FIELDS: Record<SecretFormKind, SecretField[]> = {
  tool: [{ name: 'token', label: ENGLISH.t('secret-field-token'), secret: true, autocomplete: 'off' }],
  media: [{ name: 'apiKey', label: ENGLISH.t('secret-field-api-key'), secret: true, autocomplete: 'off' }],
  calendar: [
    { name: 'username', label: ENGLISH.t('secret-field-username'), secret: false, autocomplete: 'username' },
    { name: 'password', label: ENGLISH.t('secret-field-password'), secret: true, autocomplete: 'off' },
  ],
};

/** What a submission led to. */
export type SecretSubmitOutcome =
  | { kind: 'saved'; what: string }
  | { kind: 'expired' }
  /** The form was sealed with a key Deckhand no longer has (SECRET_KEY changed): ask for a new one. */
  | { kind: 'unreadable' }
  | { kind: 'forbidden' }
  /**
   * Not stored: the value is malformed or its service refused it (`outage` when the service could
   * not be asked: the value may be right). The form stays open.
   */
  | { kind: 'invalid'; message: string; session: SecretFormSession; outage?: boolean };

/**
 * Asks a credential's service whether it accepts the credential before it is stored (the check
 * `/link` makes in chat: commands/accounts/credential-check.ts, given by src/wiring, since the web
 * layer may not import commands).
 */
export type CredentialVerifier = (
  kind: SecretFormKind,
  values: CredentialValues,
  tool: string | undefined,
  /** The page's reader, for the verdict's message and hint. */
  say?: Translator,
) => Promise<CredentialVerdict>;

/** Dependencies of {@link SecretForms}. */
export interface SecretFormsDeps {
  store: SecretFormStore;
  vault: CredentialVault;
  publicUrl(): string;
  logger: Logger;
}

/** How a submitted form reaches the chat and the credential's service. */
export interface SecretFormChat {
  /** Tells the conversation the form was asked in that a credential was stored. */
  publisher: Pick<CardPublishing, 'post'>;
  /** Checks a credential with its service; without it, only the format is checked. */
  verify?: CredentialVerifier;
  /** A conversation's language (`/language --here`), for what it is told; English when absent. */
  language?(conversationId: string): Promise<string | undefined>;
}

/** Secret entry forms. */
export class SecretForms implements SecretFormIssuer {
  constructor(private readonly deps: SecretFormsDeps) {}

  /** Opens a form for `user`; returns its private address. */
  async begin(input: {
    user: ChatUser;
    conversationId: string;
    isPrivate: boolean;
    kind: SecretFormKind;
    tool?: string;
  }): Promise<string> {
    const id = await this.deps.store.create({
      owner: { platform: input.user.platform, workspace: input.user.workspace, id: input.user.id },
      name: input.user.name,
      conversationId: input.conversationId,
      isPrivate: input.isPrivate,
      kind: input.kind,
      ...(input.tool ? { tool: input.tool } : {}),
    });
    return `${this.deps.publicUrl().replace(/\/+$/, '')}${SECRET_FORM_PATH}${id}`;
  }

  /**
   * The open form with this id (for the page): `undefined` when unknown, used or expired;
   * `'unreadable'` when it was sealed with a key Deckhand no longer has.
   */
  async load(id: string): Promise<SecretFormSession | 'unreadable' | undefined> {
    try {
      return await this.deps.store.load(id);
    } catch (error) {
      if (!(error instanceof VaultLockedError)) throw error;
      this.deps.logger.warn('secret form sealed with another key (SECRET_KEY changed?)');
      return 'unreadable';
    }
  }

  /**
   * Handles a submission: `csrf` from the hidden field, `cookie` from the browser, `origin` from its
   * `Origin` header. Invalid values leave the form open (the page shows the problem). `chat` checks
   * the credential and tells the chat it was stored.
   */
  async submit(
    id: string,
    fields: Record<string, string>,
    request: { cookie: string | undefined; origin: string | undefined },
    chat: SecretFormChat,
    /** The page's reader (the browser's language), for what the page shows. */
    say: Translator = ENGLISH,
  ): Promise<SecretSubmitOutcome> {
    const session = await this.load(id);
    if (session === 'unreadable') return { kind: 'unreadable' };
    if (!session) return { kind: 'expired' };
    const expectedOrigin = new URL(this.deps.publicUrl()).origin;
    const sameOrigin = request.origin === undefined || request.origin === expectedOrigin;
    if (!sameOrigin || fields.csrf !== session.csrf || request.cookie !== session.csrf)
      return { kind: 'forbidden' };
    const values: CredentialValues = {};
    for (const field of SECRET_FIELDS[session.kind])
      values[field.name] = fields[field.name]?.trim() || undefined;
    const problem = checkCredential(session.kind, values, say);
    if (problem) return { kind: 'invalid', message: problem, session };
    const verdict = await this.ask(chat, session, values, say);
    if (!verdict.ok) return { kind: 'invalid', message: verdict.message, session, outage: verdict.outage };
    const taken = await this.deps.store.take(id);
    if (!taken) return { kind: 'expired' };
    const what = await saveCredential(this.deps.vault, taken.owner, taken.kind, values, taken.tool, say);
    const told = translator(await chat.language?.(taken.conversationId).catch(() => undefined));
    const stored = describeCredential(taken.kind, values, taken.tool, told);
    await this.tell(chat, taken, told.t('vault-stored-through-form', taken.name, stored));
    return { kind: 'saved', what };
  }

  /** The service's verdict; a failure of the check itself is an outage (logged, the value never). */
  private async ask(
    chat: SecretFormChat,
    session: SecretFormSession,
    values: CredentialValues,
    say: Translator,
  ): Promise<CredentialVerdict> {
    if (!chat.verify) return { ok: true };
    try {
      return await chat.verify(session.kind, values, session.tool, say);
    } catch (error) {
      if (!(error instanceof DeckhandError)) {
        this.deps.logger.warn(
          { err: error, kind: session.kind },
          'could not check a credential from the secret form',
        );
      }
      const reason =
        error instanceof DeckhandError
          ? (error.words?.(say).message ?? error.message)
          : say.t('vault-check-failed');
      return {
        ok: false,
        outage: true,
        message: say.t('vault-check-outage', reason),
        hint: '',
      };
    }
  }

  private async tell(chat: SecretFormChat, session: SecretFormSession, text: string): Promise<void> {
    try {
      await chat.publisher.post(session.conversationId, {
        text,
        status: 'success',
        closesForm: true,
      });
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'could not tell the chat about a stored credential');
    }
  }
}
