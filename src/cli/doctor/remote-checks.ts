/**
 * `deckhand doctor`, network part: each configured platform's credentials against its configured API
 * root, each real service's reachability through an unauthenticated (or read-only) endpoint, and
 * `PUBLIC_URL`. No request changes anything.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config';
import { DEFAULT_SLACK_API_URL, runnablePlatforms } from '../../wiring/platforms';
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

/** Slack `auth.test` (api.slack.com/methods/auth.test): is the bot token valid? */
async function slack(config: Config): Promise<CheckResult> {
  const label = 'Slack credentials';
  if (!config.SLACK_BOT_TOKEN) return skip(label, 'OAuth installs: each workspace brings its own token.');
  const base = config.SLACK_API_URL ?? DEFAULT_SLACK_API_URL;
  const url = `${base.endsWith('/') ? base : `${base}/`}auth.test`;
  const result = await probe(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${config.SLACK_BOT_TOKEN}` },
  });
  if (result.kind === 'unreachable')
    return unreachable(label, url, result, 'check SLACK_API_URL and the network.');
  if (field(result.json, 'ok') === true) {
    return ok(
      label,
      `bot ${String(field(result.json, 'user') ?? '?')} in ${String(field(result.json, 'team') ?? '?')}.`,
    );
  }
  const error = String(field(result.json, 'error') ?? `HTTP ${result.status}`);
  return fail(
    label,
    `auth.test answered ${error}: set SLACK_BOT_TOKEN to the app's Bot User OAuth Token (OAuth & Permissions).`,
  );
}

/** Discord `GET /users/@me` (discord.com/developers/docs/resources/user#get-current-user). */
async function discord(config: Config): Promise<CheckResult> {
  const label = 'Discord credentials';
  const url = `${trim(config.DISCORD_API_URL ?? 'https://discord.com/api')}/v10/users/@me`;
  const result = await probe(url, { headers: { authorization: `Bot ${config.DISCORD_TOKEN}` } });
  if (result.kind === 'unreachable')
    return unreachable(label, url, result, 'check DISCORD_API_URL and the network.');
  if (result.status === 200) return ok(label, `bot ${String(field(result.json, 'username') ?? '?')}.`);
  return fail(
    label,
    `/users/@me answered ${result.status}: set DISCORD_TOKEN to the bot token (Developer Portal → Bot → Reset Token).`,
  );
}

/** Telegram `getMe` (core.telegram.org/bots/api#getme). The token is in the path: never shown. */
async function telegram(config: Config): Promise<CheckResult> {
  const label = 'Telegram credentials';
  const root = trim(config.TELEGRAM_API_ROOT ?? 'https://api.telegram.org');
  const result = await probe(`${root}/bot${config.TELEGRAM_BOT_TOKEN}/getMe`);
  if (result.kind === 'unreachable') {
    return fail(
      label,
      `cannot reach ${shown(root)} (${result.reason}): check TELEGRAM_API_ROOT and the network.`,
    );
  }
  if (field(result.json, 'ok') === true)
    return ok(label, `@${String(field(field(result.json, 'result'), 'username') ?? '?')}.`);
  return fail(
    label,
    `getMe answered ${result.status}: set TELEGRAM_BOT_TOKEN to the token BotFather gave (/token).`,
  );
}

/** The platform lines, for the platforms `start` would run. */
export function platformChecks(config: Config): Promise<CheckResult>[] {
  const platforms = runnablePlatforms(config);
  return [
    ...(platforms.includes('slack') ? [slack(config)] : []),
    ...(platforms.includes('discord') ? [discord(config)] : []),
    ...(platforms.includes('telegram') ? [telegram(config)] : []),
  ];
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
