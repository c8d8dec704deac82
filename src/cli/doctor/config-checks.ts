/**
 * `deckhand doctor`, configuration part: for each chat platform and service the operator started to
 * configure, what is missing, naming the variables. Reads only the configuration (no network).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config';
import { type Platform, platformProblems, runnablePlatforms, slackSettings } from '../../wiring/platforms';
import { serviceModes } from '../../wiring/service-modes';
import { type CheckResult, fail, ok, skip } from './check';

const set = (config: Config, ...names: (keyof Config)[]) => names.filter((n) => Boolean(config[n]));

/** The half-set problem `start` would refuse for `platform`, as a failed line. */
function halfSet(config: Config, platform: Platform, label: string): CheckResult | undefined {
  const problem = platformProblems(config).find((p) => p.platform === platform);
  return problem ? fail(label, problem.message) : undefined;
}

function slack(config: Config): CheckResult | undefined {
  const label = 'Slack settings';
  const half = halfSet(config, 'slack', label);
  const settings = slackSettings(config);
  if (half || !settings) return half;
  if (settings.oauth && !config.PUBLIC_URL) {
    return fail(
      label,
      'SLACK_CLIENT_ID/SLACK_CLIENT_SECRET need PUBLIC_URL (the install redirect is PUBLIC_URL/slack/oauth_redirect).',
    );
  }
  const how = settings.oauth ? 'OAuth installs' : 'one workspace';
  return ok(label, `${how}, ${settings.mode === 'socket' ? 'Socket Mode' : 'HTTP events'}.`);
}

function discord(config: Config): CheckResult | undefined {
  const label = 'Discord settings';
  if (set(config, 'DISCORD_TOKEN', 'DISCORD_APPLICATION_ID', 'DISCORD_PUBLIC_KEY').length === 0)
    return undefined;
  const half = halfSet(config, 'discord', label);
  if (half) return half;
  if (config.DISCORD_PUBLIC_KEY && !config.PUBLIC_URL) {
    return fail(
      label,
      'DISCORD_PUBLIC_KEY (HTTP interactions) needs PUBLIC_URL: Discord posts to PUBLIC_URL/discord/interactions.',
    );
  }
  return ok(label, config.DISCORD_PUBLIC_KEY ? 'HTTP interactions.' : 'gateway.');
}

function telegram(config: Config): CheckResult | undefined {
  const label = 'Telegram settings';
  if (set(config, 'TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET').length === 0) return undefined;
  return (
    halfSet(config, 'telegram', label) ??
    ok(label, config.TELEGRAM_WEBHOOK_SECRET ? 'webhook.' : 'long polling.')
  );
}

function general(config: Config): CheckResult[] {
  const platforms = runnablePlatforms(config);
  if (platforms.length === 0) {
    return [
      fail(
        'Chat platforms',
        'none configured: set TELEGRAM_BOT_TOKEN, or SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET or SLACK_APP_TOKEN, or DISCORD_TOKEN with DISCORD_APPLICATION_ID.',
      ),
    ];
  }
  return [
    ok('Chat platforms', platforms.join(', ')),
    config.SECRET_KEY
      ? ok('SECRET_KEY', 'set.')
      : fail(
          'SECRET_KEY',
          'not set: stored credentials are encrypted with it; set it to `openssl rand -hex 32` and keep it.',
        ),
  ];
}

function toolhost(config: Config, sandbox: boolean, explicitSandbox: boolean): CheckResult {
  const label = 'Tool platform settings';
  if (!config.TOOLHOST_URL && !config.TOOLHOST_INTERNAL_URL) {
    if (explicitSandbox) return skip(label, 'sandbox emulators on purpose (--sandbox or SANDBOX=1).');
    if (runnablePlatforms(config).length === 0) return skip(label, 'no TOOLHOST_URL: sandbox emulators.');
    return fail(
      label,
      'no TOOLHOST_URL or TOOLHOST_INTERNAL_URL, so chat users would act on emulated tools: set TOOLHOST_URL=https://api.svc.toolforge.org (or SANDBOX=1 to mean it).',
    );
  }
  if (sandbox && !config.TOOLHOST_URL && !config.TOOLHOST_INTERNAL_URL) return skip(label, 'sandbox.');
  if (config.TOOLHOST_INTERNAL_URL && !config.TOOLHOST_CERT_DIR) {
    return fail(label, 'TOOLHOST_INTERNAL_URL needs TOOLHOST_CERT_DIR (per-tool client.crt and client.key).');
  }
  if (config.TOOLHOST_CERT_DIR && !isDirectory(config.TOOLHOST_CERT_DIR)) {
    return fail(label, `TOOLHOST_CERT_DIR (${config.TOOLHOST_CERT_DIR}) is not a readable directory.`);
  }
  if (config.TOOLHOST_CA_FILE && !existsSync(config.TOOLHOST_CA_FILE)) {
    return fail(label, `TOOLHOST_CA_FILE (${config.TOOLHOST_CA_FILE}) does not exist.`);
  }
  const tools = config.TOOLHOST_CERT_DIR ? certifiedTools(config.TOOLHOST_CERT_DIR).length : 0;
  return ok(label, `${tools} tool certificate(s), ${config.TOOLHOST_DEPLOY_TOKENS.length} deploy token(s).`);
}

function pair(
  label: string,
  config: Config,
  a: keyof Config,
  b: keyof Config,
  unset: string,
): CheckResult | undefined {
  if (config[a] && !config[b]) return fail(label, `${String(a)} is set: set ${String(b)} too.`);
  if (config[b] && !config[a]) return fail(label, `${String(b)} is set: set ${String(a)} too.`);
  return config[a] ? ok(label, `${String(a)} and ${String(b)} set.`) : skip(label, unset);
}

function sourcehost(config: Config, sandbox: boolean): CheckResult | undefined {
  if (serviceModes(config, sandbox).sourcehost === 'emulator' && !config.SOURCEHOST_CLIENT_ID) {
    return skip(
      'Source host settings',
      'the source host emulator (sandbox) brings its own OAuth app: `/link source` works against it.',
    );
  }
  const result = pair(
    'Source host settings',
    config,
    'SOURCEHOST_CLIENT_ID',
    'SOURCEHOST_CLIENT_SECRET',
    'no OAuth app: `/link source` is off.',
  );
  if (result?.status === 'ok' && !config.PUBLIC_URL) {
    return fail(
      'Source host settings',
      'SOURCEHOST_CLIENT_ID needs PUBLIC_URL (the callback is PUBLIC_URL/oauth/source/callback).',
    );
  }
  return result;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Tools with a `client.crt` under the certificate directory. */
export function certifiedTools(dir: string): string[] {
  try {
    return readdirSync(dir).filter((tool) => existsSync(join(dir, tool, 'client.crt')));
  } catch {
    return [];
  }
}

/** Every configuration line. */
export function configChecks(config: Config, sandbox: boolean, explicitSandbox: boolean): CheckResult[] {
  return [
    ...general(config),
    slack(config),
    discord(config),
    telegram(config),
    toolhost(config, sandbox, explicitSandbox),
    pair(
      'Calendar settings',
      config,
      'CALENDAR_USER',
      'CALENDAR_APP_PASSWORD',
      'no bot-wide calendar user: users link their own.',
    ),
    sourcehost(config, sandbox),
  ].filter((r): r is CheckResult => r !== undefined);
}
