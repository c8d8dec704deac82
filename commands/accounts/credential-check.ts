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
import type { CredentialKind, CredentialValues } from '../../src/store/vault-credentials';
import type { AccountsServices } from './context';

const SERVICE_NAME: Record<CredentialKind, string> = {
  tool: 'the tool platform',
  media: 'the media host',
  calendar: 'the calendar site',
};

const WHAT: Record<CredentialKind, string> = {
  tool: 'deploy token',
  media: 'API key',
  calendar: 'application password',
};

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
export async function credentialVerdict(
  services: AccountsServices,
  kind: CredentialKind,
  values: CredentialValues,
  tool?: string,
): Promise<CredentialVerdict> {
  try {
    await probe(services, kind, values, tool);
    return { ok: true };
  } catch (error) {
    const service = SERVICE_NAME[kind];
    const outage =
      error instanceof UnreachableError ||
      (error instanceof UpstreamError && (error.status >= 500 || error.status === 429));
    if (outage) {
      return {
        ok: false,
        outage: true,
        message: `Could not check the ${WHAT[kind]}: ${service} is not answering properly (${(error as DeckhandError).message}). Nothing was stored.`,
        hint: 'This is the service, not your credential: try /link again in a few minutes.',
      };
    }
    if (!(error instanceof UpstreamError)) throw error;
    return {
      ok: false,
      outage: false,
      message: `${capitalised(service)} refused this ${WHAT[kind]}, so nothing was stored: ${error.message}`,
      hint: `Check it (copy it again from ${kind === 'tool' ? '/token show, run by someone with the tool certificate' : kind === 'media' ? "the media host's account settings" : 'your WordPress profile, Application Passwords'}) and link it again.`,
    };
  }
}

/**
 * Resolves when the service accepts the credential; otherwise throws, saying that nothing was stored:
 * a {@link RefusedError} when the service refused it, a {@link UsageError} when it could not be asked.
 * Never echoes it.
 */
export async function verifyCredential(
  services: AccountsServices,
  kind: CredentialKind,
  values: CredentialValues,
  tool?: string,
): Promise<void> {
  const verdict = await credentialVerdict(services, kind, values, tool);
  if (!verdict.ok && verdict.outage) throw new UsageError(verdict.message, { hint: verdict.hint });
  if (!verdict.ok) throw new RefusedError(verdict.message, { hint: verdict.hint });
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
