/**
 * `deckhand doctor`: checks what a deployment needs before (or while) it runs — the configuration
 * (what each configured platform and service still misses, by variable), Redis (version, eviction
 * policy, append-only file), each platform's credentials, each real service's reachability and
 * `PUBLIC_URL`, and the webhook registrations (each platform's, read back and compared with what
 * Deckhand serves). One line per check (✓, ✗ with what to do, - when it does not apply); exit 2 when a
 * configuration line is ✗, 1 on any other ✗.
 * Loads no chat SDK and no emulator.
 */
import { type Config, ConfigError, loadConfig, wantsSandbox } from '../config';
import { type CheckResult, fail, renderCheck } from './doctor/check';
import { configChecks } from './doctor/config-checks';
import { redisChecks } from './doctor/redis-checks';
import { platformChecks, publicUrlCheck, serviceChecks } from './doctor/remote-checks';
import { webhookChecks } from './doctor/webhook-checks';

/** Options of {@link runDoctor}. */
export interface DoctorOptions {
  /** `--sandbox` was given. */
  sandboxFlag: boolean;
  /** Where lines go (stdout by default). */
  write?: (line: string) => void;
}

/** Every check for this environment, in the printed order. */
export async function doctorChecks(env: NodeJS.ProcessEnv, sandboxFlag: boolean): Promise<CheckResult[]> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((problem) => ({ ...fail('Configuration', problem), configuration: true }));
  }
  const sandbox = wantsSandbox(config, sandboxFlag);
  const explicitSandbox = sandboxFlag || config.SANDBOX;
  const network = await Promise.all([
    redisChecks(config),
    Promise.all(platformChecks(config)).then(async (credentials) => [
      ...credentials,
      ...(await webhookChecks(config, sandbox, credentials)),
    ]),
    Promise.all(serviceChecks(config, sandbox)),
    publicUrlCheck(config).then((r) => [r]),
  ]);
  const configuration = configChecks(config, sandbox, explicitSandbox).map((r) => ({
    ...r,
    configuration: true,
  }));
  return [...configuration, ...network.flat()];
}

/**
 * Prints the checks; resolves with 0 when none failed, 2 when the configuration itself is incomplete
 * or invalid (what `start` refuses with exit 2), else 1.
 */
export async function runDoctor(env: NodeJS.ProcessEnv, options: DoctorOptions): Promise<number> {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const results = await doctorChecks(env, options.sandboxFlag);
  for (const result of results) write(renderCheck(result));
  const failures = results.filter((r) => r.status === 'fail');
  const failed = failures.length;
  write(
    failed === 0
      ? '\nEverything Deckhand needs is in place.'
      : `\n${failed} problem(s) found; fix them and run \`deckhand doctor\` again.`,
  );
  if (failed === 0) return 0;
  return failures.some((r) => r.configuration) ? 2 : 1;
}
