/**
 * What the literal scan reads: the product's code, less the operator's words. What `deckhand doctor`,
 * `deckhand status`, the configuration, the start-up checks and Slack's app manifest say is for the
 * person who runs Deckhand and stays English, like docs/; everything a chat reader meets is in the
 * catalogs. The service emulators (`packages/`) speak for the services, not for Deckhand.
 */

import type { Literal } from './literal-scan';

/** The folders the scan reads. */
export const SCANNED = ['adapters', 'commands', 'src'] as const;

/** Operator paths: a folder (every file under it) or a file; `*` stands for one platform's folder. */
const OPERATOR_PATHS = [
  'adapters/*/checks.ts',
  'adapters/*/doctor.ts',
  'adapters/*/env.ts',
  'adapters/api-metrics.ts',
  'adapters/doctor-kit.ts',
  'adapters/doctor-probe.ts',
  'adapters/slack/manifest.ts',
  'src/cli/args.ts',
  'src/cli/doctor',
  'src/cli/doctor.ts',
  'src/cli/lifecycle.ts',
  'src/cli/manifest.ts',
  'src/cli/start.ts',
  'src/config-docs.ts',
  'src/config-schema.ts',
  'src/config-unfurls.ts',
  'src/config.ts',
  'src/log.ts',
  'src/main.ts',
  'src/metrics.ts',
  'src/store/key-layout.ts',
  'src/store/redis-topology.ts',
  'src/system-packages.ts',
  'src/web/metrics-endpoint.ts',
  'src/wiring/redis-doctor.ts',
  'src/wiring/redis-preflight.ts',
  'src/wiring/doctor-kit.ts',
  'src/wiring/sandbox-standalone.ts',
  'src/wiring/status.ts',
] as const;

const OPERATOR = OPERATOR_PATHS.map(
  (path) => new RegExp(`^${path.replace(/[.]/g, '\\.').replace('*', '[^/]+')}(?:/|$)`),
);

/** True for a file whose words are the operator's (see above). */
export function operatorPath(file: string): boolean {
  return OPERATOR.some((pattern) => pattern.test(file));
}

/** Literals that read as words but that nobody reads, and why. */
const NOT_READ: Readonly<Record<string, string>> = {
  'text/plain; charset=utf-8': "an attachment's media type (Discord)",
};

/** True for a literal a chat reader could meet: outside the operator paths and {@link NOT_READ}. */
export function readByPeople(literal: Literal): boolean {
  return !operatorPath(literal.file) && !(literal.text in NOT_READ);
}
