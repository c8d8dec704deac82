import type { Config } from '../config';
import { createLogger } from '../log';
import { createApp } from '../wiring/app';
import { loadAdapterFactories } from '../wiring/platforms';
import { publishSandboxNotes, sandboxNotes } from '../wiring/sandbox-notes';
import {
  connectAdapters,
  createAdapters,
  listenWeb,
  MISSING_SECRET_KEY,
  openWeb,
  StartupError,
} from '../wiring/serve';
import { describeServiceModes } from '../wiring/service-modes';
import { listenForStop, stopWithin } from './lifecycle';

/** Options of {@link runStart}. */
export interface StartOptions {
  config: Config;
  sandbox: boolean;
  role: 'web' | 'worker' | 'all';
}

/**
 * Serves the configured chat platforms on one HTTP server until SIGINT/SIGTERM; resolves with the
 * exit code. The server listens before any platform is contacted; the platforms connect in the
 * background (`/readyz` says which is not connected yet); a platform that gives up for good, or a port
 * that cannot be used, stops the process with one line and exit 1.
 */
export async function runStart(options: StartOptions): Promise<number> {
  const { config } = options;
  const logger = createLogger({
    level: config.LOG_LEVEL,
    ...(config.LOG_FILE ? { file: config.LOG_FILE } : {}),
  });
  if (!config.SECRET_KEY) {
    process.stderr.write(`${MISSING_SECRET_KEY}\n`);
    return 2;
  }
  const stop = listenForStop();
  const app = await createApp({ config, logger, sandbox: options.sandbox });
  const web = openWeb(app);
  // Only the configured platforms' adapters are imported (their SDKs are large).
  const adapters = createAdapters(app, web, options.role, await loadAdapterFactories(config));
  let code = 0;
  let unpublish = async () => {};
  try {
    if (adapters.length === 0) {
      throw new StartupError(
        'deckhand: no chat platform adapter could start; check the SLACK_*, DISCORD_* and TELEGRAM_* settings.',
        2,
      );
    }
    const port = await listenWeb(app, web);
    const connected = connectAdapters(adapters, logger);
    if (options.role !== 'web') app.startWorkers();
    const platforms = adapters.map((a) => a.platform);
    logger.info({ port, platforms, services: app.modes, role: options.role }, 'deckhand started');
    const notes = sandboxNotes(app, config.SANDBOX_STEP_MS);
    unpublish = await publishSandboxNotes(app.redis.redis, config.REDIS_KEY_PREFIX, notes);
    process.stderr.write(
      `${[`Deckhand is serving ${platforms.join(', ')} on port ${port}. ${describeServiceModes(app.modes)}`, ...notes].join('\n')}\n`,
    );
    // Runs until a signal, or until a platform gives up for good (a rejection of `connected`).
    const signal = await Promise.race([stop.signal, connected.then(() => stop.signal)]);
    logger.info({ signal }, 'stopping');
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    process.stderr.write(`${error.message}\n`);
    code = error.exitCode;
  } finally {
    await stopWithin(
      [
        ['forget the sandbox notes', () => unpublish()],
        // Adapters first: no new commands; in-flight ones are drained (each adapter's stop).
        ...adapters.map((a) => [`stop ${a.platform}`, () => a.stop()] as [string, () => Promise<void>]),
        ['close the web server', () => web.close()],
        // Workers, queues, emulators, then the embedded Redis.
        ['close the app', () => app.close()],
      ],
      logger,
    );
    stop.dispose();
    logger.flush();
  }
  return code;
}
