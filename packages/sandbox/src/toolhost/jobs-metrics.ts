/**
 * A small Prometheus exposition for the emulated APIs' `/metrics` endpoints: request counts by
 * handler, method and status class, as `prometheus_fastapi_instrumentator` names them
 * (`http_requests_total{handler,method,status}`), which the real jobs API uses.
 */
import type { MiddlewareHandler } from 'hono';

/** Request counters of one API area. */
export class RequestMetrics {
  private readonly counts = new Map<string, number>();

  /** Middleware that counts every request once answered. */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      await next();
      const handler = c.req.path
        .replace(/\/tool\/[^/]+/, '/tool/{tool_name}')
        .replace(/(\/tool\/\{tool_name\}\/(?:jobs|job|envvars))\/[^/]+/, '$1/{name}');
      const status = `${String(c.res.status)[0]}xx`;
      const key = `handler="${handler}",method="${c.req.method}",status="${status}"`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    };
  }

  /** The text exposition format. */
  render(): string {
    const lines = [
      '# HELP http_requests_total Total number of requests by method, status and handler.',
      '# TYPE http_requests_total counter',
    ];
    for (const [key, count] of [...this.counts].sort()) lines.push(`http_requests_total{${key}} ${count}.0`);
    return `${lines.join('\n')}\n`;
  }
}
