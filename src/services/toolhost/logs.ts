/** The logs API: a tool's job logs, paged or streamed, and writing job events (`/logs/v1/…`). */
import type { ServiceHealth } from './common-schemas';
import {
  type JobLogsPage,
  type JobLogsQuery,
  JobLogsResponseSchema,
  type LogEntry,
  LogEntrySchema,
  LogsHealthSchema,
  type LogWriteEntry,
  LogWriteResponseSchema,
  type LogWriteResult,
  parseLogsCursor,
} from './logs-schemas';
import { definedOnly, type ToolhostSession } from './session';

/** Options of {@link LogsApi.stream}. */
export interface LogStreamOptions {
  /** Total lines (0 or omitted: the service default of 500). */
  lines?: number;
  /** Start time: RFC 3339, a date, or a duration such as `1h` (default `1h`). */
  since?: string;
  /** Stops the stream. */
  signal?: AbortSignal;
}

/** Job logs of one tool through the logs API. Every operation needs the tool's client certificate. */
export class LogsApi {
  constructor(private readonly session: ToolhostSession) {}

  /**
   * A page of a job's logs. When `lines` limits the answer and more entries exist, `next` holds the
   * cursor: call again with `next.query` (adjusting `lines` if wanted) for the following page.
   */
  async jobLogs(job: string, query: JobLogsQuery = {}): Promise<JobLogsPage> {
    const { extra, ...known } = query;
    const res = await this.session.call({
      api: 'logs',
      method: 'GET',
      path: ['job', job, 'logs'],
      route: 'job/{job}/logs',
      schema: JobLogsResponseSchema,
      action: 'toolhost-api-action-read-job-logs',
      query: { ...extra, ...definedOnly(known) },
    });
    const page: JobLogsPage = { logs: res.data.logs };
    if (res.data.next?.url) page.next = parseLogsCursor(res.data.next.url);
    return page;
  }

  /** A job's log entries as they arrive (NDJSON `LogEntry` lines); a mid-stream error is thrown last. */
  stream(job: string, options: LogStreamOptions = {}): AsyncGenerator<LogEntry, void, undefined> {
    return this.session.stream({
      api: 'logs',
      path: ['job', job, 'logs_stream'],
      route: 'job/{job}/logs_stream',
      schema: LogEntrySchema,
      action: 'toolhost-api-action-stream-job-logs',
      query: definedOnly({ lines: options.lines, since: options.since }),
      signal: options.signal,
      live: true,
    });
  }

  /** Writes job events (created, updated, restarted, deleted) to the tool's job logs. */
  async write(entries: readonly LogWriteEntry[]): Promise<LogWriteResult> {
    const res = await this.session.call({
      api: 'logs',
      method: 'POST',
      path: ['source', 'jobs', 'log'],
      route: 'source/jobs/log',
      schema: LogWriteResponseSchema,
      action: 'toolhost-api-action-write-job-log-entries',
      body: entries.map((entry) => definedOnly(entry)),
    });
    return res.data;
  }

  /** Health of the logs API (no authentication). */
  healthz(): Promise<ServiceHealth> {
    return this.session.health('/logs/v1/healthz', LogsHealthSchema);
  }

  /** Prometheus metrics of the logs API (no authentication). */
  metrics(): Promise<string> {
    return this.session.metrics('/logs/metrics');
  }
}
