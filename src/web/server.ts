import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { RouteHandler, RouteRegistrar } from '../core/host';
import type { MetricsEndpoint } from './metrics-endpoint';

/** A raw Node handler, so SDK request listeners (Bolt, grammY, …) can be mounted unchanged. */
export type { RouteHandler };

/** A named readiness check behind `/readyz` (Redis reachable, each adapter connected). */
export type HealthCheck = () => Promise<boolean>;

/** How long one check may take before it counts as not ready. */
const CHECK_TIMEOUT_MS = 2000;

/** What `/readyz` found: every check by name, and the names that are not ready. */
export interface Readiness {
  ready: boolean;
  checks: Record<string, boolean>;
  notReady: string[];
}

/**
 * The one HTTP server: platform webhooks, OAuth pages and health on one port (metrics where
 * {@link WebServer.serveMetrics} says). Routes are matched by method and exact path or by a prefix
 * ending in `*`.
 *
 * `/healthz` is liveness: 200 while the process serves HTTP, whatever Redis or the chat platforms do
 * (a probe restarting Deckhand on a chat platform's outage would help no one). `/readyz` is readiness: 503
 * until the process has started, then the named checks (Redis, each adapter connected), run again
 * on each request — at most every `readyCacheMs` (concurrent probes share one run).
 */
export class WebServer implements RouteRegistrar {
  private readonly routes: { method: string; path: string; handler: RouteHandler }[] = [];
  private readonly checks = new Map<string, HealthCheck>();
  private server: Server | undefined;
  private ready = false;
  private lastReadiness: { at: number; result: Promise<Readiness> } | undefined;
  private metrics: MetricsEndpoint | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly readyCacheMs = 2000,
  ) {
    this.route('GET', '/healthz', (_req, res) => send(res, 200, { status: 'alive' }));
    this.route('GET', '/readyz', async (_req, res) => {
      if (!this.ready) {
        send(res, 503, { status: 'starting', notReady: ['startup'] });
        return;
      }
      const found = await this.readiness();
      send(res, found.ready ? 200 : 503, {
        status: found.ready ? 'ready' : 'not ready',
        checks: found.checks,
        ...(found.ready ? {} : { notReady: found.notReady }),
      });
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

  /** Adds a named readiness check reported by `/readyz`. */
  healthCheck(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  /** Marks start-up done: from now on `/readyz` answers from its checks. */
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

  /** The checks' current answer (cached for `readyCacheMs`). */
  readiness(): Promise<Readiness> {
    const now = Date.now();
    if (this.lastReadiness && now - this.lastReadiness.at < this.readyCacheMs)
      return this.lastReadiness.result;
    const result = this.runChecks();
    this.lastReadiness = { at: now, result };
    return result;
  }

  private async runChecks(): Promise<Readiness> {
    const checks: Record<string, boolean> = {};
    await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        checks[name] = await Promise.race([
          check().catch(() => false),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), CHECK_TIMEOUT_MS).unref()),
        ]);
      }),
    );
    const notReady = Object.keys(checks).filter((name) => !checks[name]);
    return { ready: notReady.length === 0, checks, notReady };
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
