/**
 * The serving side of a process: the one web server with the account routes and health checks, and
 * the chat platform adapters. The adapter factories are passed in (`platforms.ts` loads only the
 * configured ones), so this module imports no chat SDK.
 */
import type { AdapterFactory, PlatformAdapter } from '../../adapters/types';
import { MetricsEndpoint } from '../web/metrics-endpoint';
import { WebServer } from '../web/server';
import type { App } from './app';
import { adapterContext } from './host';

/** What `deckhand start` says when `SECRET_KEY` is missing. */
export { MISSING_SECRET_KEY } from '../store/vault-cipher';

/** The web server of a process, with the account routes and the Redis health check mounted. */
export function openWeb(app: App): WebServer {
  const { config, logger } = app.services;
  const web = new WebServer(logger);
  const metrics = new MetricsEndpoint(
    { port: config.METRICS_PORT, host: config.METRICS_HOST, token: config.METRICS_TOKEN },
    logger,
  );
  web.serveMetrics(metrics);
  logger.info(`metrics: ${metrics.describe()}`);
  app.accounts.mount(web);
  web.healthCheck('redis', async () => (await app.redis.redis.ping()) === 'PONG');
  return web;
}

/** Listens, tells the account links where, and marks the server ready; resolves with the port. */
export async function listenWeb(app: App, web: WebServer): Promise<number> {
  const { config } = app.services;
  const port = await web.listen(config.PORT, config.HOST);
  app.accounts.listening(port);
  web.markReady();
  return port;
}

/** The adapters `factories` create for this process, each with its health check on `web`. */
export function createAdapters(
  app: App,
  web: WebServer,
  role: 'web' | 'worker' | 'all',
  factories: readonly AdapterFactory[],
): PlatformAdapter[] {
  const context = adapterContext(app, { web, role });
  const adapters = factories
    .map((create) => create(context))
    .filter((a): a is PlatformAdapter => a !== undefined);
  for (const adapter of adapters) web.healthCheck(adapter.platform, () => adapter.healthy());
  return adapters;
}
