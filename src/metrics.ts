import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { deckhandVersion } from './version';

/** The Prometheus registry served at `/metrics` (see `src/web/metrics-endpoint.ts`). */
export const metricsRegistry = new Registry();

// Node's default metrics under their standard names (`process_cpu_seconds_total`,
// `nodejs_eventloop_lag_seconds`, …), so stock Node.js dashboards match them.
collectDefaultMetrics({ register: metricsRegistry });

/** Always 1; its labels say which Deckhand and which Node.js run (the usual `build_info` idiom). */
export const buildInfo = new Gauge({
  name: 'deckhand_build_info',
  help: 'Deckhand build: its version and the Node.js version, as labels (value always 1).',
  labelNames: ['version', 'node'] as const,
  registers: [metricsRegistry],
});
buildInfo.set({ version: deckhandVersion(), node: process.version }, 1);

/** Commands handled, by command, platform and outcome (`ok`, `usage`, `permission`, `upstream`, …). */
export const commandCounter = new Counter({
  name: 'deckhand_commands_total',
  help: 'Commands handled, by command, platform and outcome.',
  labelNames: ['command', 'platform', 'outcome'] as const,
  registers: [metricsRegistry],
});

/**
 * Time from when the dispatcher takes a command, click or form until it has answered (the reply or
 * the error card posted), by command and outcome (`ok`, `confirm`, `usage`, `permission`,
 * `upstream`, `unreachable`, `internal`, …).
 */
export const commandDuration = new Histogram({
  name: 'deckhand_command_duration_seconds',
  help: 'Duration of handling one command, button click or form, by command and outcome.',
  labelNames: ['command', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [metricsRegistry],
});

/** Time from when a platform's request reached Deckhand until it was acknowledged, by platform. */
export const ackDuration = new Histogram({
  name: 'deckhand_ack_duration_seconds',
  help: 'Time to acknowledge a chat platform request (an ack, a deferral, an answer), by platform.',
  labelNames: ['platform'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3],
  registers: [metricsRegistry],
});

/** Calls to a chat platform's API, by platform and API method (or route template). */
export const chatApiCalls = new Counter({
  name: 'deckhand_chat_api_calls_total',
  help: 'Calls to the chat platform APIs, by platform and method.',
  labelNames: ['platform', 'method'] as const,
  registers: [metricsRegistry],
});

/** Chat API calls that failed (an error answer or no answer), by platform and method. */
export const chatApiErrors = new Counter({
  name: 'deckhand_chat_api_errors_total',
  help: 'Chat platform API calls that failed, by platform and method.',
  labelNames: ['platform', 'method'] as const,
  registers: [metricsRegistry],
});

/** Chat API calls the platform rate-limited (HTTP 429 / `retry_after`), by platform and method. */
export const chatApiRateLimited = new Counter({
  name: 'deckhand_chat_api_rate_limited_total',
  help: 'Chat platform API calls answered with a rate limit (429), by platform and method.',
  labelNames: ['platform', 'method'] as const,
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

/**
 * How long a queued command waited behind earlier commands of its lane (one person in one
 * conversation) before its turn, from when it was queued; 0 for one that joined an empty lane.
 */
export const commandLaneWait = new Histogram({
  name: 'deckhand_command_lane_wait_seconds',
  help: 'Time a queued command waited behind earlier commands of the same person in the same conversation.',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

/**
 * How long a caller waited for a resource lock, by outcome: `taken` (it got the lock) or `busy`
 * (the wait ran out and the user was told).
 */
export const lockWait = new Histogram({
  name: 'deckhand_lock_wait_seconds',
  help: 'Time spent waiting for a resource lock, by outcome (taken or busy).',
  labelNames: ['outcome'] as const,
  buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [metricsRegistry],
});

/**
 * Looks at followed resources (a deployment or build a watch follows, a source-host migration, a
 * remote upload), by kind of follow (`watch`, `migration`, `remote upload`).
 */
export const followLooks = new Counter({
  name: 'deckhand_follow_looks_total',
  help: 'Looks at followed resources (watches, migrations, remote uploads), by kind of follow.',
  labelNames: ['follow'] as const,
  registers: [metricsRegistry],
});
