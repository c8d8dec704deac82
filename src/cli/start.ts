import type { Config } from '../config';
import { createLogger } from '../log';
import { type App, createApp } from '../wiring/app';
import { chatEnvPatterns, listed, loadAdapterFactories } from '../wiring/platforms';
import { emulatorsProcess } from '../wiring/sandbox-child';
import { emulatorNotes, publishSandboxNotes, sandboxNotes } from '../wiring/sandbox-notes';
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
 * that cannot be used, stops the process with one line and exit 1. In sandbox mode the emulators run
 * in a child process (`deckhand sandbox`), stopped with this one; if it dies, so does start (exit 1).
 */
export async function runStart(options: StartOptions): Promise<number> {
  const logger = createLogger({
    level: options.config.LOG_LEVEL,
    ...(options.config.LOG_FILE ? { file: options.config.LOG_FILE } : {}),
  });
  if (!options.config.SECRET_KEY) {
    process.stderr.write(`${MISSING_SECRET_KEY}\n`);
    return 2;
  }
  const stop = listenForStop();
  // With a chat platform the emulators run in their own process (sandbox-child.ts).
  const emulators = await emulatorsProcess(options.config, options.sandbox, logger);
  if (typeof emulators === 'string') {
    process.stderr.write(`${emulators}\n`);
    stop.dispose();
    logger.flush();
    return 1;
  }
  const config = emulators ? { ...options.config, ...emulators.values } : options.config;
  let app: App;
  try {
    app = await createApp({
      config,
      logger,
      sandbox: options.sandbox,
      ...(emulators
        ? { emulated: { services: emulators.services, tools: emulators.tools, toolUrl: emulators.toolUrl } }
        : {}),
    });
  } catch (error) {
    await emulators?.stop();
    stop.dispose();
    throw error;
  }
  const web = openWeb(app);
  // Only the configured platforms' adapters are imported (their SDKs are large).
  const adapters = createAdapters(app, web, options.role, await loadAdapterFactories(config));
  let code = 0;
  let unpublish = async () => {};
  try {
    if (adapters.length === 0) {
      throw new StartupError(
        `deckhand: no chat platform adapter could start; check the ${listed(chatEnvPatterns(), 'and')} settings.`,
        2,
      );
    }
    const port = await listenWeb(app, web);
    emulators?.listening(port);
    const connected = connectAdapters(adapters, logger);
    if (options.role !== 'web') app.startWorkers();
    const platforms = adapters.map((a) => a.platform);
    logger.info({ port, platforms, services: app.modes, role: options.role }, 'deckhand started');
    const notes = emulators
      ? emulatorNotes(
          {
            toolhost: emulators.services.includes('toolhost'),
            ...(emulators.values.MEDIA_API_URL ? { mediaUrl: emulators.values.MEDIA_API_URL } : {}),
          },
          config.SANDBOX_STEP_MS,
        )
      : sandboxNotes(app, config.SANDBOX_STEP_MS);
    unpublish = await publishSandboxNotes(
      app.redis.redis,
      config.REDIS_KEY_PREFIX,
      notes,
      emulators?.services.includes('toolhost')
        ? emulators.values.TOOLHOST_URL
        : app.emulators.toolhost?.externalUrl,
    );
    process.stderr.write(
      `${[`Deckhand is serving ${platforms.join(', ')} on port ${port}. ${describeServiceModes(app.modes)}`, ...notes].join('\n')}\n`,
    );
    // Runs until a signal, until a platform gives up for good (a rejection of `connected`), or
    // until the emulators' process dies.
    const signal = await Promise.race([
      stop.signal,
      connected.then(() => stop.signal),
      ...(emulators
        ? [
            emulators.died.then((line) => {
              throw new StartupError(line, 1);
            }),
          ]
        : []),
    ]);
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
        ['stop the sandbox emulators', async () => emulators?.stop()],
      ],
      logger,
    );
    stop.dispose();
    logger.flush();
  }
  return code;
}
