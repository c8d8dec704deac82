/** `deckhand doctor`'s network line for Matrix: `whoami` with the configured token (never shown). */
import type { Config } from '../../src/config';
import type { PlatformDoctor } from '../descriptor';
import { type CheckResult, fail, field, inert, ok, skip, trim } from '../doctor-kit';
import { probe, shown } from '../doctor-probe';

/**
 * `GET /_matrix/client/v3/account/whoami` (Client-Server API, "Current account information"): the
 * token must belong to `MATRIX_USER_ID`. With a password instead of a token, doctor does not log in
 * (a login creates a device on the account each time): the check says so.
 */
async function credentials(config: Config): Promise<CheckResult> {
  const label = 'Matrix credentials';
  const root = trim(config.MATRIX_HOMESERVER_URL as string);
  const token = config.MATRIX_ACCESS_TOKEN;
  if (!token)
    return skip(
      label,
      'not checked: MATRIX_PASSWORD logs in at start (doctor does not log in; it would add a device).',
    );
  const result = await probe(`${root}/_matrix/client/v3/account/whoami`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (result.kind === 'unreachable')
    return fail(
      label,
      `cannot reach ${shown(root)} (${result.reason}): check MATRIX_HOMESERVER_URL and the network.`,
    );
  const userId = field(result.json, 'user_id');
  if (result.status === 200 && typeof userId === 'string') {
    if (userId !== config.MATRIX_USER_ID)
      return fail(
        label,
        `the token belongs to ${inert(userId, [token])}, not ${config.MATRIX_USER_ID}: set MATRIX_USER_ID or the token of that account.`,
      );
    return ok(label, `${userId} on ${shown(root)}.`);
  }
  const code = inert(String(field(result.json, 'errcode') ?? ''), [token]);
  return fail(
    label,
    `whoami answered ${result.status}${code ? ` ${code}` : ''}: set MATRIX_ACCESS_TOKEN to a valid token of ${config.MATRIX_USER_ID}.`,
  );
}

/** Matrix's network checks. */
export const matrixDoctor: PlatformDoctor = { credentials };
