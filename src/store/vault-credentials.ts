/**
 * The read API over the vault for the services that use stored credentials, with the bot-wide
 * fallbacks from configuration where a team uses a shared account:
 *
 * ```ts
 * const calendar = await credentials.calendar(invocation.user);   // user's own, else CALENDAR_USER/…
 * if (!calendar) throw new PermissionDenied('Link your calendar account with /link calendar.');
 * const media = await credentials.media(invocation.user);         // user's own, else MEDIA_API_KEY
 * const token = await credentials.deployToken(invocation.user, 'mytool');
 * const source = await credentials.source(invocation.user);       // OAuth token, login, scopes
 * ```
 *
 * Values returned are registered with the scrubber (never logged or posted). A vault that cannot be
 * opened (wrong key) throws `VaultLockedError` rather than falling back silently.
 */
import { type Translator, translator } from '../i18n/translate';
import type { CredentialVault, VaultOwner } from './vault';

/** Calendar credentials (WordPress username + application password). */
export interface CalendarCredentials {
  username: string;
  applicationPassword: string;
  /** `user` when the chat user linked their own, `shared` for the configured account. */
  origin: 'user' | 'shared';
}

/** A media host API key. */
export interface MediaCredentials {
  apiKey: string;
  origin: 'user' | 'shared';
}

/** The linked source-host account. */
export interface SourceCredentials {
  token: string;
  login: string;
  scopes: string[];
}

/** Bot-wide fallbacks from configuration. */
export interface SharedCredentials {
  MEDIA_API_KEY?: string | undefined;
  CALENDAR_USER?: string | undefined;
  CALENDAR_APP_PASSWORD?: string | undefined;
}

/** Typed access to stored credentials. */
export class Credentials {
  constructor(
    private readonly vault: CredentialVault,
    private readonly shared: SharedCredentials = {},
  ) {}

  /** What is wrong with `values` for a credential of `kind`, in the user's words; `undefined` when they are fine. */
  check(kind: CredentialKind, values: CredentialValues): string | undefined {
    return checkCredential(kind, values);
  }

  /** Stores a checked credential of `kind` for `owner`; resolves with what was stored, in words. */
  save(owner: VaultOwner, kind: CredentialKind, values: CredentialValues, tool?: string): Promise<string> {
    return saveCredential(this.vault, owner, kind, values, tool);
  }

  /** Which shared accounts are configured (for /whoami). */
  sharedKinds(): ('media' | 'calendar')[] {
    const kinds: ('media' | 'calendar')[] = [];
    if (this.shared.MEDIA_API_KEY) kinds.push('media');
    if (this.shared.CALENDAR_USER && this.shared.CALENDAR_APP_PASSWORD) kinds.push('calendar');
    return kinds;
  }

  /** The user's calendar account, else the shared one, else undefined. */
  async calendar(owner: VaultOwner): Promise<CalendarCredentials | undefined> {
    const record = await this.vault.get(owner, 'calendar');
    if (record?.secret.applicationPassword && typeof record.meta.username === 'string') {
      return {
        username: record.meta.username,
        applicationPassword: record.secret.applicationPassword,
        origin: 'user',
      };
    }
    if (this.shared.CALENDAR_USER && this.shared.CALENDAR_APP_PASSWORD) {
      return {
        username: this.shared.CALENDAR_USER,
        applicationPassword: this.shared.CALENDAR_APP_PASSWORD,
        origin: 'shared',
      };
    }
    return undefined;
  }

  /** The user's media API key, else the shared one, else undefined. */
  async media(owner: VaultOwner): Promise<MediaCredentials | undefined> {
    const record = await this.vault.get(owner, 'media');
    if (record?.secret.apiKey) return { apiKey: record.secret.apiKey, origin: 'user' };
    return this.shared.MEDIA_API_KEY ? { apiKey: this.shared.MEDIA_API_KEY, origin: 'shared' } : undefined;
  }

  /** The deploy token the user linked for a tool, if any. */
  async deployToken(owner: VaultOwner, tool: string): Promise<string | undefined> {
    return (await this.vault.get(owner, `tool:${tool}`))?.secret.token;
  }

  /** The user's linked source-host account, if any. */
  async source(owner: VaultOwner): Promise<SourceCredentials | undefined> {
    const record = await this.vault.get(owner, 'source');
    if (!record?.secret.token) return undefined;
    const scopes = record.meta.scopes;
    return {
      token: record.secret.token,
      login: String(record.meta.login ?? ''),
      scopes: Array.isArray(scopes) ? scopes : [],
    };
  }
}

/** Which credential `/link` or the secret form stores. */
export type CredentialKind = 'tool' | 'media' | 'calendar';

/** The values of each kind of credential, as typed by the user. */
export interface CredentialValues {
  token?: string | undefined;
  apiKey?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
}

const TOKEN = /^[A-Za-z0-9._~+/=-]{8,512}$/;

/**
 * Checks typed credential values; returns what is wrong (one sentence naming the field) or
 * undefined when they are fine. Never echoes a value.
 */
export function checkCredential(
  kind: CredentialKind,
  values: CredentialValues,
  say: Translator = translator('en'),
): string | undefined {
  switch (kind) {
    case 'tool':
      if (!values.token) return say.t('vault-token-missing');
      return TOKEN.test(values.token) ? undefined : say.t('vault-token-malformed');
    case 'media':
      if (!values.apiKey) return say.t('vault-api-key-missing');
      return TOKEN.test(values.apiKey) ? undefined : say.t('vault-api-key-malformed');
    case 'calendar': {
      if (!values.username || !/^[^\s:]{1,100}$/.test(values.username)) {
        return say.t('vault-username-invalid');
      }
      const password = values.password?.trim();
      if (!password || password.length < 8 || password.length > 200) {
        return say.t('vault-password-invalid');
      }
      return undefined;
    }
  }
}

/** What a stored credential is, as a phrase (`a deploy token for mytool`), in `say`'s language. */
export function describeCredential(
  kind: CredentialKind,
  values: CredentialValues,
  tool: string | undefined,
  say: Translator = translator('en'),
): string {
  switch (kind) {
    case 'tool':
      return say.t('vault-what-token', tool ?? '');
    case 'media':
      return say.t('vault-what-api-key');
    case 'calendar':
      return say.t('vault-what-calendar', values.username ?? '');
  }
}

/**
 * Stores a checked credential of `kind` for `owner` (the caller ran {@link checkCredential}); returns
 * what was stored, as {@link describeCredential} says it in `say`'s language.
 */
export async function saveCredential(
  vault: CredentialVault,
  owner: VaultOwner,
  kind: CredentialKind,
  values: CredentialValues,
  tool?: string,
  say: Translator = translator('en'),
): Promise<string> {
  switch (kind) {
    case 'tool':
      await vault.put(owner, `tool:${tool}`, {
        secret: { token: values.token as string },
        meta: { tool: tool as string },
      });
      return describeCredential(kind, values, tool, say);
    case 'media':
      await vault.put(owner, 'media', { secret: { apiKey: values.apiKey as string }, meta: {} });
      return describeCredential(kind, values, tool, say);
    case 'calendar':
      await vault.put(owner, 'calendar', {
        secret: { applicationPassword: (values.password as string).trim() },
        meta: { username: values.username as string },
      });
      return describeCredential(kind, values, tool, say);
  }
}
