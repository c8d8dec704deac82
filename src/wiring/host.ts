/**
 * Joins the adapters to the core: the running application is their host (`App` fills the ports of
 * `src/core/host.ts`); here each adapter gets its context.
 */
import type { AdapterContext } from '../../adapters/types';
import type { RouteRegistrar } from '../core/host';
import { DeliveryDeduper } from '../store/dedupe';
import type { App } from './app';

/** What {@link adapterContext} needs besides the application. */
export interface AdapterContextOptions {
  /** Where webhook routes are mounted (the one web server). */
  web: RouteRegistrar;
  role: AdapterContext['role'];
}

/** The context every adapter of this process starts with. */
export function adapterContext(app: App, options: AdapterContextOptions): AdapterContext {
  const { config, logger } = app.services;
  return {
    app,
    web: options.web,
    config,
    logger,
    // Delivery ids are remembered a day: a platform's last retry comes ~5 min after the first try.
    deduper: new DeliveryDeduper(app.redis.requests, config.REDIS_KEY_PREFIX),
    requestPath: app.redis.requests,
    role: options.role,
  };
}
