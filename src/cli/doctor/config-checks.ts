/**
 * `deckhand doctor`, configuration part: for each chat platform and service the operator started to
 * configure, what is missing, naming the variables. Reads only the configuration (no network).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config';
import { PLATFORMS, runnablePlatforms } from '../../wiring/platforms';
import { serviceModes } from '../../wiring/service-modes';
import { type CheckResult, fail, ok, skip } from './check';

/** The variables that turn each platform on, simplest first. */
function setupHints(): string[] {
  return PLATFORMS.flatMap((platform) => (platform.setupHint ? [platform.setupHint] : []))
    .sort((a, b) => a.rank - b.rank)
    .map((hint) => hint.variables);
}

function general(config: Config): CheckResult[] {
  const platforms = runnablePlatforms(config);
  if (platforms.length === 0) {
    return [fail('Chat platforms', `none configured: set ${setupHints().join(', or ')}.`)];
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
    ...PLATFORMS.map((platform) => platform.settingsCheck?.(config)),
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
