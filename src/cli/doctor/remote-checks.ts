/**
 * `deckhand doctor`, network part: each configured platform's credentials against its configured API
 * root, each real service's reachability through an unauthenticated (or read-only) endpoint, and
 * `PUBLIC_URL`. No request changes anything.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config';
import { doctoredPlatforms } from '../../wiring/platforms';
import { serviceModes } from '../../wiring/service-modes';
import { type CheckResult, fail, ok, skip } from './check';
import { certifiedTools } from './config-checks';
import { type ProbeResult, probe, shown } from './http';

const trim = (url: string) => url.replace(/\/+$/, '');
const field = (json: unknown, key: string): unknown =>
  json && typeof json === 'object' ? (json as Record<string, unknown>)[key] : undefined;
const unreachable = (
  label: string,
  url: string,
  result: Extract<ProbeResult, { kind: 'unreachable' }>,
  fix: string,
) => fail(label, `cannot reach ${shown(url)} (${result.reason}): ${fix}`);

/** The credentials lines, for the platforms `start` would run (in the table's order). */
export function platformChecks(config: Config): Promise<CheckResult>[] {
  return doctoredPlatforms(config).map(async (platform) => (await platform.doctor()).credentials(config));
}

/** A GET that must answer below 500 (or exactly `want`). */
async function reach(
  label: string,
  url: string,
  fix: string,
  want?: number,
  tls?: { ca?: string; cert?: string; key?: string },
): Promise<CheckResult> {
  const result = await probe(url, tls ? { tls } : {});
  if (result.kind === 'unreachable') return unreachable(label, url, result, fix);
  if (want ? result.status !== want : result.status >= 500) {
    return fail(label, `${shown(url)} answered ${result.status}: ${fix}`);
  }
  return ok(label, `${shown(url)} answers (${result.status}).`);
}

/** Tool platform: the builds API's unauthenticated `/builds/v1/healthz` (builds-api, specs/toolforge). */
function toolhost(config: Config): Promise<CheckResult>[] {
  const checks: Promise<CheckResult>[] = [];
  const fix = 'check TOOLHOST_URL / TOOLHOST_INTERNAL_URL and the network.';
  if (config.TOOLHOST_URL)
    checks.push(reach('Tool platform', `${trim(config.TOOLHOST_URL)}/builds/v1/healthz`, fix, 200));
  // Without TOOLHOST_CERT_DIR the configuration check already failed: no certificate to connect with.
  if (config.TOOLHOST_INTERNAL_URL && config.TOOLHOST_CERT_DIR) {
    const tls: { ca?: string; cert?: string; key?: string } = {};
    try {
      if (config.TOOLHOST_CA_FILE) tls.ca = readFileSync(config.TOOLHOST_CA_FILE, 'utf8');
      const tool = config.TOOLHOST_CERT_DIR ? certifiedTools(config.TOOLHOST_CERT_DIR)[0] : undefined;
      if (tool && config.TOOLHOST_CERT_DIR) {
        tls.cert = readFileSync(join(config.TOOLHOST_CERT_DIR, tool, 'client.crt'), 'utf8');
        tls.key = readFileSync(join(config.TOOLHOST_CERT_DIR, tool, 'client.key'), 'utf8');
      }
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      checks.push(
        Promise.resolve(
          fail(
            'Tool platform (internal)',
            `cannot read the CA or a client certificate (${reason}): check TOOLHOST_CA_FILE and TOOLHOST_CERT_DIR.`,
          ),
        ),
      );
      return checks;
    }
    checks.push(
      reach(
        'Tool platform (internal)',
        `${trim(config.TOOLHOST_INTERNAL_URL)}/builds/v1/healthz`,
        fix,
        200,
        tls,
      ),
    );
  }
  return checks;
}

/** Calendar: the WordPress REST index must list the plugin's namespace. */
async function calendar(config: Config): Promise<CheckResult> {
  const label = 'Calendar';
  if (!config.CALENDAR_URL) return skip(label, 'CALENDAR_URL not set: the calendar commands say so.');
  const url = `${config.CALENDAR_URL.endsWith('=') ? config.CALENDAR_URL : trim(config.CALENDAR_URL)}/`;
  const result = await probe(url);
  if (result.kind === 'unreachable') return unreachable(label, url, result, 'check CALENDAR_URL.');
  const namespaces = field(result.json, 'namespaces');
  if (result.status !== 200 || !Array.isArray(namespaces)) {
    return fail(
      label,
      `${shown(url)} answered ${result.status} without a REST index: set CALENDAR_URL to the site's REST root (https://example.org/wp-json).`,
    );
  }
  if (!namespaces.includes(config.CALENDAR_NAMESPACE)) {
    return fail(
      label,
      `the site has no ${config.CALENDAR_NAMESPACE} API: activate The Events Calendar, or fix CALENDAR_NAMESPACE.`,
    );
  }
  return ok(label, `${shown(url)} serves ${config.CALENDAR_NAMESPACE}.`);
}

/** Media host: `account/info` with the bot-wide key (read-only), else any answer of the API host. */
async function media(config: Config): Promise<CheckResult> {
  const label = 'Media host';
  const url = `${trim(config.MEDIA_API_URL ?? 'https://doodapi.com')}/api/account/info`;
  if (!config.MEDIA_API_KEY) return reach(label, url, 'check MEDIA_API_URL.');
  const result = await probe(`${url}?key=${encodeURIComponent(config.MEDIA_API_KEY)}`);
  if (result.kind === 'unreachable') return unreachable(label, url, result, 'check MEDIA_API_URL.');
  const status = Number(field(result.json, 'status'));
  if (status === 200) return ok(label, `${shown(url)} accepts MEDIA_API_KEY.`);
  // The API answers `{"msg":"Too Many Requests","status":"429"}` past its per-key rate: reachable, key unjudged.
  if (status === 429)
    return ok(label, `${shown(url)} answers (rate-limited just now, so the key was not checked).`);
  return fail(
    label,
    `account/info refused MEDIA_API_KEY (${String(field(result.json, 'msg') ?? result.status)}): copy the key from the media account's settings page.`,
  );
}

/** The service lines: real services only (emulators run inside `start`, nothing to reach). */
export function serviceChecks(config: Config, sandbox: boolean): Promise<CheckResult>[] {
  const modes = serviceModes(config, sandbox);
  const emulated = (label: string) =>
    Promise.resolve(skip(label, 'sandbox emulator, started by Deckhand itself.'));
  return [
    ...(modes.toolhost === 'real' ? toolhost(config) : [emulated('Tool platform')]),
    modes.calendar === 'real' ? calendar(config) : emulated('Calendar'),
    modes.media === 'real' ? media(config) : emulated('Media host'),
    modes.sourcehost === 'real'
      ? reach(
          'Source host',
          `${trim(config.SOURCEHOST_URL ?? 'https://api.github.com')}/rate_limit`,
          'check SOURCEHOST_URL.',
          200,
        )
      : emulated('Source host'),
  ];
}

/** `PUBLIC_URL`: does a running Deckhand answer `/readyz` there? */
export async function publicUrlCheck(config: Config): Promise<CheckResult> {
  const label = 'PUBLIC_URL';
  if (!config.PUBLIC_URL) return skip(label, 'not set (needed for webhooks, HTTP interactions and OAuth).');
  const url = `${trim(config.PUBLIC_URL)}/readyz`;
  const result = await probe(url);
  if (result.kind === 'unreachable')
    return unreachable(label, url, result, 'is the web process running and PUBLIC_URL its public address?');
  if (result.status === 200) return ok(label, `${shown(url)} is ready.`);
  return fail(
    label,
    `${shown(url)} answered ${result.status}: start the web process (deckhand start --role web) and check that PUBLIC_URL points at it.`,
  );
}
