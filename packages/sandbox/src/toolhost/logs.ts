/**
 * The logs API emulator (`/logs`, seeds/000 and specs/toolforge/logs-schemas.md). Responses use the
 * `ApiResponse` envelope `{data, messages}` (messages without the components beta warning):
 *
 * - `GET /v1/healthz` → `HealthState`; `GET /metrics` (Prometheus text).
 * - `GET /v1/tool/{tool_name}/job/{job_name}/logs` → `JobsLogs {logs: [LogEntry], next?: {url}}`,
 *   query `lines`, `direction`, `since`, `until`, `bucket_offset` (logs-query.ts, paging in
 *   logs-page.ts). A job with no logs in range answers an empty list, not 404: like Loki, the
 *   store does not know about jobs, and logs outlive a deleted job.
 * - `GET …/logs_stream` → `text/plain` NDJSON `LogEntry` per line: the last `lines` (0 → 500,
 *   at most 5000) entries since `since` (default 1h), then each new entry as the job prints it.
 * - `POST /v1/tool/{tool_name}/source/jobs/log` → `LogWriteResult {status}` (logs-write.ts).
 * - 422 for invalid input, in the envelope (see logs-query.ts for why that shape).
 *
 * `LogEntry` = `{pod, container, datetime, message}`; `datetime` is printed as pydantic prints an
 * aware UTC datetime (`2026-08-20T10:00:00.123000Z`).
 */
import { Hono } from 'hono';
import { type ToolhostEnv, toolAuth } from './auth';
import type { SandboxContext } from './context';
import { envelope, errorBody } from './errors';
import { RequestMetrics } from './jobs-metrics';
import { LOGS_PAGE_SIZE, pageOf } from './logs-page';
import {
  formatTime,
  parseLogsQuery,
  parseStreamLines,
  problemMessages,
  type QueryProblem,
  timeParam,
} from './logs-query';
import { logStoreOf, type StoredLogLine } from './logs-store';
import { liveLogStream } from './logs-stream';
import {
  issueMessages,
  JobsApiLog,
  type LogWrite,
  WriteEntries,
  writeOf,
  writeOfJobsApiLog,
} from './logs-write';

/** Default and maximum `lines` of `logs_stream`. */
export const LOGS_STREAM_LINES = { lines: 500, max: 5000 } as const;

/** A stored line as the API's `LogEntry`. */
export function logEntry(line: StoredLogLine): {
  pod: string;
  container: string;
  datetime: string;
  message: string;
} {
  return { pod: line.pod, container: line.container, datetime: formatTime(line.time), message: line.message };
}

const ok = <T>(data: T) => envelope(data, {}, []);
const invalid = (messages: string[]) => errorBody('logs', 422, messages) as object;

/** Creates the logs API (mount it at `/logs`). */
export function createLogsArea(ctx: SandboxContext, options: { pageSize?: number } = {}): Hono<ToolhostEnv> {
  const store = logStoreOf(ctx);
  const pageSize = options.pageSize ?? LOGS_PAGE_SIZE;
  const metrics = new RequestMetrics();
  const app = new Hono<ToolhostEnv>();
  app.use('*', metrics.middleware());

  app.get('/v1/healthz', (c) => c.json(ok({ status: 'OK' })));
  app.get('/metrics', (c) => c.text(metrics.render(), 200, { 'content-type': 'text/plain; version=0.0.4' }));

  app.use('/v1/tool/:tool_name/*', toolAuth({ area: 'logs' }));

  app.get('/v1/tool/:tool_name/job/:job_name/logs', (c) => {
    const now = Date.now();
    const { query, problems } = parseLogsQuery((name) => c.req.query(name), now);
    if (problems.length) return c.json(invalid(problemMessages(problems)), 422);
    const tool = c.get('tool');
    const inRange = store.range(tool, c.req.param('job_name'), query.since, query.until);
    const page = pageOf(inRange, query, pageSize);
    const data: { logs: ReturnType<typeof logEntry>[]; next?: { url: string } } = {
      logs: page.entries.map(logEntry),
    };
    if (page.next) {
      const url = new URL(c.req.url);
      for (const [key, value] of Object.entries(page.next)) url.searchParams.set(key, value);
      data.next = { url: url.toString() };
    }
    return c.json(ok(data));
  });

  app.get('/v1/tool/:tool_name/job/:job_name/logs_stream', (c) => {
    const now = Date.now();
    const problems: QueryProblem[] = [];
    const lines = parseStreamLines(c.req.query('lines'), LOGS_STREAM_LINES, problems);
    const since = timeParam(c.req.query('since'), 'since', '1h', now, problems);
    if (problems.length) return c.json(invalid(problemMessages(problems)), 422);
    const tool = c.get('tool');
    const job = c.req.param('job_name');
    const initial = store.range(tool, job, since, Number.MAX_SAFE_INTEGER).slice(-lines);
    const format = (line: StoredLogLine) => `${JSON.stringify(logEntry(line))}\n`;
    const stream = liveLogStream({
      ctx,
      store,
      tool,
      job,
      initial: initial.map(format),
      format,
      signal: c.req.raw.signal,
    });
    return c.body(stream, 200, { 'content-type': 'text/plain; charset=utf-8', 'x-accel-buffering': 'no' });
  });

  const write = (tool: string, writes: readonly LogWrite[]) => {
    for (const w of writes) {
      store.append(tool, w.job, {
        pod: '',
        container: '',
        message: w.message,
        time: w.time,
        source: 'jobs-api',
      });
    }
  };

  const readJson = async (text: string): Promise<{ ok: true; body: unknown } | { ok: false }> => {
    try {
      return { ok: true, body: JSON.parse(text) };
    } catch {
      return { ok: false };
    }
  };

  app.post('/v1/tool/:tool_name/source/jobs/log', async (c) => {
    const json = await readJson(await c.req.text());
    if (!json.ok) return c.json(invalid(['Invalid JSON in the request body']), 422);
    const parsed = WriteEntries.safeParse(json.body);
    if (!parsed.success) return c.json(invalid(issueMessages(parsed.error.issues, json.body)), 422);
    write(c.get('tool'), parsed.data.map(writeOf));
    return c.json(ok({ status: 'OK' }));
  });

  app.post('/v1/tool/:tool_name/source/jobs-api/log', async (c) => {
    const json = await readJson(await c.req.text());
    if (!json.ok) return c.json(invalid(['Invalid JSON in the request body']), 422);
    const parsed = JobsApiLog.safeParse(json.body);
    if (!parsed.success) return c.json(invalid(issueMessages(parsed.error.issues, json.body)), 422);
    write(c.get('tool'), [writeOfJobsApiLog(parsed.data)]);
    return c.json(ok({ status: 'OK' }));
  });

  return app;
}
