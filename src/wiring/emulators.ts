/**
 * The one place Deckhand starts the embedded emulators (`@deckhand/sandbox`): in-process for
 * `createApp` in sandbox mode, and in their own process for `deckhand sandbox` (sandbox-standalone.ts,
 * the child of `start --sandbox` with a chat platform). The package is imported only when an emulator
 * runs, so a deployment with real services never loads it.
 */
import type { Emulators } from '@deckhand/sandbox';
import type { Config } from '../config';
import type { ServiceName } from './service-modes';

export type { Emulators } from '@deckhand/sandbox';

/** Starts the emulators of `services` with the configuration's pace and data directory. */
export async function startConfiguredEmulators(
  config: Config,
  services: Iterable<ServiceName>,
): Promise<Emulators> {
  const names = [...services];
  if (names.length === 0) return {};
  const { startEmulators } = await import('@deckhand/sandbox');
  return startEmulators(names, {
    stepMs: config.SANDBOX_STEP_MS,
    dataDir: config.DATA_DIR,
    // The OAuth callback route (src/web/oauth-flow.ts), spelled out so the emulators' process loads no web code.
    callbackUrl: `${config.PUBLIC_URL?.replace(/\/+$/, '') ?? 'http://127.0.0.1'}/oauth/source/callback`,
  });
}

/** Stops the emulators `startConfiguredEmulators` started. */
export async function stopConfiguredEmulators(emulators: Emulators): Promise<void> {
  if (Object.keys(emulators).length === 0) return;
  await (await import('@deckhand/sandbox')).stopEmulators(emulators);
}
