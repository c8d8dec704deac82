/**
 * `deckhand doctor`, the webhook registrations: where each platform delivers to, read back from the
 * platform and compared with what Deckhand serves (`PUBLIC_URL` + its route), or — when Deckhand
 * receives another way (long polling, the gateway) — that no registration diverts the deliveries.
 * Read-only requests; a platform whose credentials failed is not asked again. Each platform's own
 * check is in its folder (`deliveries` of its doctor).
 */
import type { Config } from '../../config';
import { doctoredPlatforms } from '../../wiring/platforms';
import { serviceModes } from '../../wiring/service-modes';
import { SOURCEHOST_WEBHOOK_PATH } from '../../wiring/webhook-paths';
import { type CheckResult, skip } from './check';

export { inert } from '../../wiring/doctor-kit';

const trim = (url: string) => url.replace(/\/+$/, '');

/**
 * Source host: Deckhand registers no webhook itself (an admin adds the `repository_import` hook), and
 * listing a repository's hooks (`GET /repos/{owner}/{repo}/hooks`) needs the admin's token, which
 * Deckhand does not hold (users link their own accounts). So this line says where to look.
 */
function sourcehost(config: Config, sandbox: boolean): CheckResult {
  const label = 'Source host webhook';
  if (serviceModes(config, sandbox).sourcehost !== 'real')
    return skip(label, 'sandbox emulator: Deckhand sets it up itself.');
  if (!config.SOURCEHOST_WEBHOOK_SECRET)
    return skip(label, 'SOURCEHOST_WEBHOOK_SECRET not set: webhooks are refused, imports are not announced.');
  const base = config.PUBLIC_URL ? trim(config.PUBLIC_URL) : 'PUBLIC_URL';
  return skip(
    label,
    `not checked: listing a repository's hooks needs its admin's token, which Deckhand does not hold; ` +
      `the repository_import hook must post to ${base}${SOURCEHOST_WEBHOOK_PATH} with SOURCEHOST_WEBHOOK_SECRET.`,
  );
}

/**
 * The registration lines of the platforms `start` would run, after their credentials lines (in the
 * same order, from {@link platformChecks}): a platform whose credentials failed gets a `-` line instead
 * of a second failure.
 */
export async function webhookChecks(
  config: Config,
  sandbox: boolean,
  credentials: readonly CheckResult[],
): Promise<CheckResult[]> {
  const checks = doctoredPlatforms(config).map(async (platform, index) => {
    const doctor = await platform.doctor();
    return doctor.deliveries?.(config, credentials[index]?.status === 'ok');
  });
  const lines = await Promise.all([...checks, Promise.resolve(sourcehost(config, sandbox))]);
  return lines.filter((line): line is CheckResult => line !== undefined);
}
