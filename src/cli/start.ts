import type { Config } from '../config';
import { createLogger } from '../log';
import { createApp } from '../wiring/app';
import { loadAdapterFactories } from '../wiring/platforms';
import { publishSandboxNotes, sandboxNotes } from '../wiring/sandbox-notes';
import { createAdapters, listenWeb, MISSING_SECRET_KEY, openWeb } from '../wiring/serve';
import { describeServiceModes } from '../wiring/service-modes';

/** Options of {@link runStart}. */
export interface StartOptions {
  config: Config;
  sandbox: boolean;
  role: 'web' | 'worker' | 'all';
}

/**
 * Serves the configured chat platforms on one HTTP server until SIGINT/SIGTERM; resolves with the
 * exit code.
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
  const app = await createApp({ config, logger, sandbox: options.sandbox });
  const web = openWeb(app);
  // Only the configured platforms' adapters are imported (their SDKs are large).
  const adapters = createAdapters(app, web, options.role, await loadAdapterFactories(config));
  if (adapters.length === 0) {
    await app.close();
    process.stderr.write(
      'No chat platform adapter could start; check the SLACK_*, DISCORD_* and TELEGRAM_* settings.\n',
    );
    return 2;
  }
  let unpublish = async () => {};
  try {
    for (const adapter of adapters) await adapter.start();
    if (options.role !== 'web') app.startWorkers();
    const port = await listenWeb(app, web);
    logger.info(
      { port, platforms: adapters.map((a) => a.platform), services: app.modes },
      'deckhand started',
    );
    const notes = sandboxNotes(app, config.SANDBOX_STEP_MS);
    unpublish = await publishSandboxNotes(app.redis.redis, config.REDIS_KEY_PREFIX, notes);
    process.stderr.write(
      `${[`Deckhand is serving ${adapters.map((a) => a.platform).join(', ')} on port ${port}. ${describeServiceModes(app.modes)}`, ...notes].join('\n')}\n`,
    );
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
  } finally {
    await unpublish();
    for (const adapter of adapters)
      await adapter.stop().catch((error) => logger.error({ err: error }, 'adapter stop failed'));
    await web.close();
    await app.close();
    logger.flush();
  }
  return 0;
}
