import type { PlatformAdapter } from '../../adapters';
import { createApp } from '../app';
import type { Config } from '../config';
import { createLogger } from '../log';
import { describeServiceModes } from '../service-modes';
import { DeliveryDeduper } from '../store/dedupe';
import { MISSING_SECRET_KEY } from '../store/vault-cipher';
import { WebServer } from '../web/server';
import { loadAdapterFactories } from './platforms';

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
  const web = new WebServer(logger);
  app.accounts.mount(web);
  const deduper = new DeliveryDeduper(app.redis.requests, config.REDIS_KEY_PREFIX);
  const context = { app, web, config, logger, deduper, role: options.role };
  // Only the configured platforms' adapters are imported (their SDKs are large).
  const adapters = (await loadAdapterFactories(config))
    .map((create) => create(context))
    .filter((a): a is PlatformAdapter => a !== undefined);
  if (adapters.length === 0) {
    await app.close();
    process.stderr.write(
      'No chat platform adapter could start; check the SLACK_*, DISCORD_* and TELEGRAM_* settings.\n',
    );
    return 2;
  }
  web.healthCheck('redis', async () => (await app.redis.redis.ping()) === 'PONG');
  for (const adapter of adapters) web.healthCheck(adapter.platform, () => adapter.healthy());
  try {
    for (const adapter of adapters) await adapter.start();
    if (options.role !== 'web') app.startWorkers();
    const port = await web.listen(config.PORT, config.HOST);
    app.accounts.listening(port);
    web.markReady();
    logger.info(
      { port, platforms: adapters.map((a) => a.platform), services: app.modes },
      'deckhand started',
    );
    process.stderr.write(
      `Deckhand is serving ${adapters.map((a) => a.platform).join(', ')} on port ${port}. ${describeServiceModes(app.modes)}\n`,
    );
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
  } finally {
    for (const adapter of adapters)
      await adapter.stop().catch((error) => logger.error({ err: error }, 'adapter stop failed'));
    await web.close();
    await app.close();
    logger.flush();
  }
  return 0;
}
