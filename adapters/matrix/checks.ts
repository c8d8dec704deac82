/** `deckhand doctor`'s configuration lines for Matrix (no network). */
import type { Config } from '../../src/config';
import { type CheckResult, fail, ok } from '../doctor-kit';
import { serverOfUser } from './ids';

/** True when any Matrix variable that turns the adapter on is set. */
function anySet(config: Config): boolean {
  return Boolean(
    config.MATRIX_HOMESERVER_URL ||
      config.MATRIX_USER_ID ||
      config.MATRIX_ACCESS_TOKEN ||
      config.MATRIX_PASSWORD,
  );
}

/** What is missing when Matrix is set up half-way, naming the variables; `undefined` otherwise. */
export function matrixMissing(config: Config): string | undefined {
  if (!anySet(config)) return undefined;
  const missing: string[] = [];
  if (!config.MATRIX_HOMESERVER_URL) missing.push('MATRIX_HOMESERVER_URL (the bot account’s homeserver)');
  if (!config.MATRIX_USER_ID) missing.push('MATRIX_USER_ID (@deckhand:example.org)');
  if (!config.MATRIX_ACCESS_TOKEN && !config.MATRIX_PASSWORD)
    missing.push('MATRIX_ACCESS_TOKEN (or MATRIX_PASSWORD to log in at start)');
  return missing.length ? `Matrix is half set up: set ${missing.join(', ')}.` : undefined;
}

/** Fully configured: homeserver, user, and a token or a password. */
export function matrixConfigured(config: Config): boolean {
  return anySet(config) && matrixMissing(config) === undefined;
}

/** Half-set, or how the bot signs in and whom it lets invite it. */
export function matrixSettingsCheck(config: Config): CheckResult | undefined {
  const label = 'Matrix settings';
  if (!anySet(config)) return undefined;
  const problem = matrixMissing(config);
  if (problem) return fail(label, problem);
  const signIn = config.MATRIX_ACCESS_TOKEN ? 'access token' : 'password login at start';
  const servers = allowedServers(config).join(', ');
  return ok(
    label,
    `${signIn}; invitations accepted from ${servers}; commands start with ${config.MATRIX_COMMAND_PREFIX}.`,
  );
}

/** The servers whose people and rooms may invite the bot: the configured ones, else the bot's own. */
export function allowedServers(config: Config): string[] {
  if (config.MATRIX_ALLOWED_SERVERS.length > 0) return config.MATRIX_ALLOWED_SERVERS;
  return config.MATRIX_USER_ID ? [serverOfUser(config.MATRIX_USER_ID)] : [];
}

/** The sync loop receives in one process: several `web` processes would each run every command. */
export function matrixScalingCheck(config: Config): CheckResult | undefined {
  if (!matrixConfigured(config)) return undefined;
  return ok(
    'Matrix mode',
    'sync: one `--role web` process receives (the others only post); duplicates are dropped by event id.',
  );
}

/** How commands are typed here: the prefix instead of `/` (`MATRIX_COMMAND_PREFIX`); the descriptor's `commandPrefix`. */
export function matrixCommandPrefix(config: Config): string {
  return config.MATRIX_COMMAND_PREFIX;
}
