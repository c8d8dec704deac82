/**
 * Where `/metrics` is served, and to whom:
 * - `METRICS_PORT` set: on that port only, on its own listener bound to `METRICS_HOST` (default
 *   `127.0.0.1`), never on the public webhook port;
 * - else `METRICS_TOKEN` set: on the public port, to requests bearing that token only;
 * - neither: not served at all (the safe default: the webhook port is public, and the metrics name
 *   commands, queues and services).
 * With both, the separate port asks for the token too.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { RouteHandler, RouteRegistrar } from '../core/host';
import { metricsRegistry } from '../metrics';

/** The metrics settings (`METRICS_PORT`, `METRICS_HOST`, `METRICS_TOKEN`). */
export interface MetricsSettings {
  port?: number | undefined;
  host: string;
  token?: string | undefined;
}

/** True when `header` is `Bearer <token>` (compared in constant time, whatever the lengths). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (given === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** The `/metrics` handler: the registry in Prometheus text format, behind `token` when given. */
export function metricsHandler(token: string | undefined): RouteHandler {
  return async (req: IncomingMessage, res: ServerResponse) => {
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer realm="metrics"' });
      res.end('A bearer token (METRICS_TOKEN) is required.\n');
      return;
    }
    const body = await metricsRegistry.metrics();
    res.writeHead(200, { 'content-type': metricsRegistry.contentType });
    res.end(body);
  };
}

/** `/metrics` as the settings decide (see the module comment). */
export class MetricsEndpoint {
  private server: Server | undefined;

  constructor(
    private readonly settings: MetricsSettings,
    private readonly logger: Logger,
  ) {}

  /** Where the metrics are, in words (for the start-up log). */
  describe(): string {
    const { port, host, token } = this.settings;
    if (port !== undefined) return `on http://${host}:${port}/metrics${token ? ' (bearer token)' : ''}`;
    if (token) return 'on the web port at /metrics (bearer token)';
    return 'not served (set METRICS_PORT or METRICS_TOKEN)';
  }

  /** Adds the route to the public server when that is where the metrics go (token, no port). */
  mount(web: RouteRegistrar): void {
    if (this.settings.port === undefined && this.settings.token) {
      web.route('GET', '/metrics', metricsHandler(this.settings.token));
    }
  }

  /** Opens the separate metrics listener when `METRICS_PORT` is set; resolves with its port. */
  async listen(): Promise<number | undefined> {
    const { port, host, token } = this.settings;
    if (port === undefined) return undefined;
    const handler = metricsHandler(token);
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (req.method !== 'GET' || path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('Only GET /metrics is served here.\n');
        return;
      }
      Promise.resolve(handler(req, res)).catch((error: unknown) => {
        this.logger.error({ err: error }, 'metrics collection failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  /** Closes the separate listener, if open. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
