/**
 * Checks a credential with its service before `/link` stores it, so a mistyped or revoked one is
 * refused at once instead of failing a later command:
 * - a deploy token: a harmless call that only a valid token passes, showing a deployment id that
 *   cannot exist (the components API checks the token first: 401 when refused, then 404);
 * - a media API key: the account info (`/api/account/info`), refused with "Invalid key" (403);
 * - a calendar password: a read that carries it; WordPress turns away every request with a refused
 *   application password with 401 (`incorrect_password`, `invalid_username`).
 * When the service fails or cannot be reached, nothing is stored either, and the reply says it is the
 * service, not the credential. The secret page (src/web/secret-flow.ts) asks the same question
 * through {@link credentialVerdict}, joined in src/wiring.
 */
import {
  type DeckhandError,
  NotFoundError,
  RefusedError,
  UnreachableError,
  UpstreamError,
  UsageError,
} from '../../src/core/errors';
import type { CredentialVerdict } from '../../src/core/linking';
import { type Translator, translator } from '../../src/i18n/translate';
import type { CredentialKind, CredentialValues } from '../../src/store/vault-credentials';
import type { AccountsServices } from './context';

const ENGLISH = translator('en');

/** What the service said of a credential, before it is put in words. */
type Probed = { ok: true } | { ok: false; outage: boolean; reason: string };

/** The refusal or outage of a credential of `kind` in the reader's words. */
function verdictWords(
  kind: CredentialKind,
  result: Extract<Probed, { ok: false }>,
  say: Translator,
): { message: string; hint: string } {
  if (result.outage) {
    const message =
      kind === 'tool'
        ? say.t('credential-outage-tool', result.reason)
        : kind === 'media'
          ? say.t('credential-outage-media', result.reason)
          : say.t('credential-outage-calendar', result.reason);
    return { message, hint: say.t('credential-outage-hint') };
  }
  if (kind === 'tool')
    return {
      message: say.t('credential-refused-tool', result.reason),
      hint: say.t('credential-refused-hint-tool'),
    };
  if (kind === 'media')
    return {
      message: say.t('credential-refused-media', result.reason),
      hint: say.t('credential-refused-hint-media'),
    };
  return {
    message: say.t('credential-refused-calendar', result.reason),
    hint: say.t('credential-refused-hint-calendar'),
  };
}

/** An id no deployment has (ids are `YYYYmmdd-HHMMSS-<10 chars>`): its 404 proves the token passed. */
const PROBE_DEPLOYMENT = 'deckhand-token-check';

async function probe(
  services: AccountsServices,
  kind: CredentialKind,
  values: CredentialValues,
  tool: string | undefined,
): Promise<void> {
  switch (kind) {
    case 'tool': {
      const client = services.toolhost.forTool(tool as string, {
        deployToken: values.token as string,
        tokenOnly: true,
      });
      try {
        await client.components.showDeployment(PROBE_DEPLOYMENT);
      } catch (error) {
        if (error instanceof NotFoundError) return;
        throw error;
      }
      return;
    }
    case 'media':
      await services.media.withKey(values.apiKey as string).account.info();
      return;
    case 'calendar':
      await services.calendar
        .withCredentials({ user: values.username as string, appPassword: (values.password as string).trim() })
        .categories.list({ per_page: 1 });
      return;
  }
}

/**
 * What the service says about the credential: accepted, refused (its own reason), or not answering
 * properly (an outage, not the credential). Anything but the service's own answer (no calendar set
 * up, no server for the tool…) is thrown as it is. Never echoes the credential.
 */
async function probed(
  services: AccountsServices,
  kind: CredentialKind,
  values: CredentialValues,
  tool: string | undefined,
): Promise<Probed> {
  try {
    await probe(services, kind, values, tool);
    return { ok: true };
  } catch (error) {
    const outage =
      error instanceof UnreachableError ||
      (error instanceof UpstreamError && (error.status >= 500 || error.status === 429));
    if (outage) return { ok: false, outage: true, reason: (error as DeckhandError).message };
    if (!(error instanceof UpstreamError)) throw error;
    return { ok: false, outage: false, reason: error.message };
  }
}

/**
 * The service's verdict on the credential (see {@link probed}), its message and hint in `say`'s
 * language (the secret page's reader's; English when none is given).
 */
export async function credentialVerdict(
  services: AccountsServices,
  kind: CredentialKind,
  values: CredentialValues,
  tool?: string,
  say: Translator = ENGLISH,
): Promise<CredentialVerdict> {
  const result = await probed(services, kind, values, tool);
  if (result.ok) return result;
  return { ok: false, outage: result.outage, ...verdictWords(kind, result, say) };
}

/**
 * Resolves when the service accepts the credential; otherwise throws, saying that nothing was stored
 * (in the reader's language): a {@link RefusedError} when the service refused it, a
 * {@link UsageError} when it could not be asked. Never echoes it.
 */
export async function verifyCredential(
  services: AccountsServices,
  kind: CredentialKind,
  values: CredentialValues,
  tool?: string,
): Promise<void> {
  const result = await probed(services, kind, values, tool);
  if (result.ok) return;
  const words = (say: Translator) => verdictWords(kind, result, say);
  if (result.outage) throw UsageError.inWords(words);
  throw refusedInWords(words);
}

/** A {@link RefusedError} said in the catalog's words (English for logs and the audit trail). */
export function refusedInWords(words: NonNullable<DeckhandError['words']>): RefusedError {
  const english = words(ENGLISH);
  return new RefusedError(english.message, { hint: english.hint, words });
}
