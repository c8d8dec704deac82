import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** The Prometheus registry served at `/metrics`. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'deckhand_' });

/** Commands handled, by command, platform and outcome (`ok`, `usage`, `permission`, `upstream`, …). */
export const commandCounter = new Counter({
  name: 'deckhand_commands_total',
  help: 'Commands handled, by command, platform and outcome.',
  labelNames: ['command', 'platform', 'outcome'] as const,
  registers: [metricsRegistry],
});

/** Requests to the external services, by service, method, route template and status. */
export const upstreamDuration = new Histogram({
  name: 'deckhand_upstream_request_duration_seconds',
  help: 'Duration of requests to the external services.',
  labelNames: ['service', 'method', 'route', 'status'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});
