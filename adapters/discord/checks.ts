/** `deckhand doctor`'s configuration lines for Discord (no network). */
import type { Config } from '../../src/config';
import { type CheckResult, fail, ok } from '../doctor-kit';

/** What is missing when Discord is set up half-way, naming the variables; `undefined` otherwise. */
export function discordMissing(config: Config): string | undefined {
  const touched = (['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID', 'DISCORD_PUBLIC_KEY'] as const).filter((n) =>
    Boolean(config[n]),
  );
  if (touched.length === 0) return undefined;
  const missing = (['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID'] as const).filter((n) => !config[n]);
  return missing.length > 0
    ? `set ${missing.join(' and ')} (Developer Portal → your application).`
    : undefined;
}

/** Half-set, HTTP interactions without `PUBLIC_URL`, or which mode runs. */
export function discordSettingsCheck(config: Config): CheckResult | undefined {
  const label = 'Discord settings';
  if (!config.DISCORD_TOKEN && !config.DISCORD_APPLICATION_ID && !config.DISCORD_PUBLIC_KEY) return undefined;
  const problem = discordMissing(config);
  if (problem) return fail(label, problem);
  if (config.DISCORD_PUBLIC_KEY && !config.PUBLIC_URL) {
    return fail(
      label,
      'DISCORD_PUBLIC_KEY (HTTP interactions) needs PUBLIC_URL: Discord posts to PUBLIC_URL/discord/interactions.',
    );
  }
  return ok(label, config.DISCORD_PUBLIC_KEY ? 'HTTP interactions.' : 'gateway.');
}

/** The gateway receives in one process: several `web` processes need HTTP interactions. */
export function discordScalingCheck(config: Config): CheckResult | undefined {
  if (!config.DISCORD_TOKEN || config.DISCORD_PUBLIC_KEY) return undefined;
  return ok(
    'Discord mode',
    'gateway: run one `--role web` process (or give each its own SHARDS); with several web processes set DISCORD_PUBLIC_KEY for HTTP interactions (docs/redis.md, "Several processes").',
  );
}
