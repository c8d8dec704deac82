import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { RouteHandler, RouteRegistrar } from '../core/host';
import type { MetricsEndpoint } from './metrics-endpoint';

/** A raw Node handler, so SDK request listeners (Bolt, grammY, …) can be mounted unchanged. */
export type { RouteHandler };

/** A named check behind `/healthz` (Redis reachable, each adapter up). */
export type HealthCheck = () => Promise<boolean>;

/**
 * The one HTTP server: platform webhooks, OAuth pages and health on one port (metrics where
 * {@link WebServer.serveMetrics} says). Routes are matched by method and exact path or by a prefix
 * ending in `*`.
 */
export class WebServer implements RouteRegistrar {
  private readonly routes: { method: string; path: string; handler: RouteHandler }[] = [];
  private readonly checks = new Map<string, HealthCheck>();
  private server: Server | undefined;
  private ready = false;
  private metrics: MetricsEndpoint | undefined;

  constructor(private readonly logger: Logger) {
    this.route('GET', '/healthz', (_req, res) => this.health(res));
    this.route('GET', '/readyz', (_req, res) => {
      send(res, this.ready ? 200 : 503, { status: this.ready ? 'ready' : 'starting' });
    });
  }

  /**
   * Serves `/metrics` as `endpoint` decides: on this server behind its token, or on its own port,
   * opened and closed with this server (see `metrics-endpoint.ts`).
   */
  serveMetrics(endpoint: MetricsEndpoint): void {
    this.metrics = endpoint;
    endpoint.mount(this);
  }

  /** Adds a route; `path` may end in `*` to match a prefix. */
  route(method: string, path: string, handler: RouteHandler): void {
    this.routes.push({ method, path, handler });
  }

  /** Adds a named health check reported by `/healthz`. */
  healthCheck(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  /** Marks the process ready (`/readyz` → 200). */
  markReady(): void {
    this.ready = true;
  }

  /** Starts listening; resolves with the bound port. */
  async listen(port: number, host: string): Promise<number> {
    const server = createServer((req, res) => void this.dispatch(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    await this.metrics?.listen();
    return (server.address() as AddressInfo).port;
  }

  /** Stops listening and closes open connections. */
  async close(): Promise<void> {
    await this.metrics?.close();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    // Every answer is what its Content-Type says, never sniffed as something else.
    res.setHeader('x-content-type-options', 'nosniff');
    const route = this.routes.find(
      (r) =>
        r.method === req.method &&
        (r.path === path || (r.path.endsWith('*') && path.startsWith(r.path.slice(0, -1)))),
    );
    if (!route) {
      send(res, 404, { error: 'not found' });
      return;
    }
    try {
      await route.handler(req, res);
    } catch (error) {
      this.logger.error({ err: error, path }, 'web route failed');
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
    }
  }

  private async health(res: ServerResponse): Promise<void> {
    const results: Record<string, boolean> = {};
    await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        results[name] = await Promise.race([
          check().catch(() => false),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref()),
        ]);
      }),
    );
    const ok = Object.values(results).every(Boolean);
    send(res, ok ? 200 : 503, { status: ok ? 'ok' : 'degraded', checks: results });
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
