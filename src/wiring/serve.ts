/**
 * The serving side of a process: the one web server with the account routes and readiness checks,
 * and the chat platform adapters. The adapter factories are passed in (`platforms.ts` loads only the
 * configured ones), so this module imports no chat SDK.
 *
 * Order of start-up (`deckhand start`): the web server listens first (so `/healthz` answers and a busy
 * port stops start-up at once, with one line), then the adapters connect in the background — each
 * SDK retries an unreachable platform with its own back-off (an auto-retry plugin, a web
 * client's retry policy, a REST client and gateway) while `/readyz` names what is not
 * connected yet.
 */
import type { Logger } from 'pino';
import type { AdapterFactory, PlatformAdapter } from '../../adapters/types';
import { CARD_VIEW_NAMESPACE } from '../core/card-view';
import { queuesUsable } from '../store/key-layout';
import { mountCardViews } from '../web/card-view-route';
import { MetricsEndpoint } from '../web/metrics-endpoint';
import { WebServer } from '../web/server';
import type { App } from './app';
import { adapterContext } from './host';

/** What `deckhand start` says when `SECRET_KEY` is missing. */
export { MISSING_SECRET_KEY } from '../store/sealer';

/** Start-up cannot go on; `message` is the one line to print (no stack). */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'StartupError';
  }
}

/** The web server of a process, with the account routes mounted and Redis and the queues as readiness checks. */
export function openWeb(app: App): WebServer {
  const { config, logger } = app.services;
  const web = new WebServer(logger);
  const metrics = new MetricsEndpoint(
    { port: config.METRICS_PORT, host: config.METRICS_HOST, token: config.METRICS_TOKEN },
    logger,
  );
  web.serveMetrics(metrics);
  logger.info(`metrics: ${metrics.describe()}`);
  app.accounts.mount(web, app);
  app.adminLog.mount(web);
  mountCardViews(web, app.keyValue(CARD_VIEW_NAMESPACE, { sealed: true }));
  web.healthCheck('redis', async () => (await app.redis.redis.ping()) === 'PONG');
  web.healthCheck('queues', () => queuesUsable(app.queues, config.REDIS_KEY_PREFIX));
  return web;
}

/** One line for a failed `listen` (busy port, no permission), in Deckhand's words. */
export function describeListenError(error: unknown, host: string, port: number): string {
  const code = (error as { code?: string }).code;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE') {
    return `deckhand: port ${port} is already in use (${where}): another Deckhand or another server listens there. Stop it, or set PORT to a free port.`;
  }
  if (code === 'EACCES') {
    return `deckhand: not allowed to listen on ${where} (ports below 1024 need privileges): set PORT to 1024 or above.`;
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return `deckhand: cannot listen on ${where}: HOST is not an address of this machine.`;
  }
  return `deckhand: cannot listen on ${where} (${code ?? (error as Error).message}).`;
}

/**
 * Listens, tells the account links where, and marks start-up done; resolves with the port. A port
 * that cannot be used is a {@link StartupError} with one clear line.
 */
export async function listenWeb(app: App, web: WebServer): Promise<number> {
  const { config } = app.services;
  let port: number;
  try {
    port = await web.listen(config.PORT, config.HOST);
  } catch (error) {
    throw new StartupError(describeListenError(error, config.HOST, config.PORT));
  }
  app.accounts.listening(port);
  web.markReady();
  return port;
}

/** The adapters `factories` create for this process, each with its readiness check on `web`. */
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

/**
 * Starts every adapter without waiting for its platform: each registers its messenger and routes at
 * once and connects in the background (its SDK retrying with back-off; `/readyz` says which is not
 * connected). Resolves when all are connected; rejects with a {@link StartupError} when one gives up
 * for good (credentials refused, the SDK's retries spent) — the process then stops, loudly.
 */
export function connectAdapters(adapters: readonly PlatformAdapter[], logger: Logger): Promise<void> {
  return Promise.all(
    adapters.map(async (adapter) => {
      logger.info({ platform: adapter.platform }, 'connecting to the chat platform');
      try {
        await adapter.start();
      } catch (error) {
        logger.error({ err: error, platform: adapter.platform }, 'the chat platform adapter could not start');
        throw new StartupError(
          `deckhand: ${adapter.platform} could not start: ${(error as Error).message ?? String(error)}`,
        );
      }
      logger.info({ platform: adapter.platform }, 'connected to the chat platform');
    }),
  ).then(() => undefined);
}
