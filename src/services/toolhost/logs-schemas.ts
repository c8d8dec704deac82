/**
 * Schemas of the logs API (`/logs/v1`; see specs/toolforge/logs-schemas.md) and the log entry both
 * it and the jobs API stream as NDJSON.
 */
import { z } from 'zod';
import { envelope, HealthStatusSchema } from './common-schemas';

/** One log record of a job. */
export const LogEntrySchema = z.object({
  pod: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  container: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  /** RFC 3339 with offset. */
  datetime: z.string(),
  message: z.string(),
});
/** One log record of a job. */
export type LogEntry = z.output<typeof LogEntrySchema>;

/** Reading order of {@link LogsApi.jobLogs}. */
export type LogDirection = 'oldest_first' | 'newest_first';

/**
 * Query of `GET …/job/{job}/logs`. Times are strings: RFC 3339 (`2026-08-20T10:00:00Z`), a date
 * (`2026-08-20`) or a duration (`1h`, `30m`, `10s`).
 */
export interface JobLogsQuery {
  /** Total lines wanted; 0 or omitted means all (the answer then carries `next` when more exist). */
  lines?: number;
  direction?: LogDirection;
  /** Start (default `1h`). */
  since?: string;
  /** End (default `0s`). */
  until?: string;
  /** Entries to skip among those sharing the `since` timestamp (copied from a `next` cursor). */
  bucket_offset?: number;
  /** Parameters of a `next` cursor this client does not know; sent back unchanged. */
  extra?: Record<string, string>;
}

/** The cursor of the next page: the service's URL and the query parsed from it. */
export interface LogsCursor {
  url: string;
  query: JobLogsQuery;
}

/** A page of job logs. */
export interface JobLogsPage {
  logs: LogEntry[];
  /** Present when more entries exist; pass `next.query` to the next call. */
  next?: LogsCursor;
}

/** `GET …/logs` → `{data: {logs, next?: {url}}}`. */
export const JobLogsResponseSchema = envelope(
  z.object({
    logs: z
      .array(LogEntrySchema)
      .nullish()
      .transform((v) => v ?? []),
    next: z.object({ url: z.string() }).nullish(),
  }),
);

/** Result of writing log entries. */
export const LogWriteResultSchema = z.object({ status: HealthStatusSchema });
/** Result of writing log entries. */
export type LogWriteResult = z.output<typeof LogWriteResultSchema>;
/** `POST …/source/jobs/log`. */
export const LogWriteResponseSchema = envelope(LogWriteResultSchema);

/** `GET /healthz`, normalised. */
export const LogsHealthSchema = envelope(z.object({ status: HealthStatusSchema })).transform((body) => ({
  status: body.data.status,
  ...(body.messages?.error.length ? { message: body.messages.error.join('\n') } : {}),
}));

/** Parses a `next.url` cursor into the query of the next call (unknown parameters kept in `extra`). */
export function parseLogsCursor(url: string): LogsCursor {
  const params = new URL(url, 'http://cursor.invalid').searchParams;
  const query: JobLogsQuery = {};
  const extra: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key === 'lines' || key === 'bucket_offset') {
      const n = Number(value);
      if (Number.isInteger(n)) query[key] = n;
      else extra[key] = value;
    } else if (key === 'direction' && (value === 'oldest_first' || value === 'newest_first')) {
      query.direction = value;
    } else if (key === 'since' || key === 'until') {
      query[key] = value;
    } else {
      extra[key] = value;
    }
  }
  if (Object.keys(extra).length > 0) query.extra = extra;
  return { url, query };
}

/** The four kinds of job event written to a job's log. */
export type LogWriteKind = 'job-created' | 'job-updated' | 'job-restarted' | 'job-deleted';

/**
 * One job event to write. The seed names the four kinds but not their fields; this is the published
 * `JobsApiLog` (`datetime?, message, job_name, user_name`) with a `type` telling the kinds apart,
 * as the sandbox implements it.
 */
export interface LogWriteEntry {
  type: LogWriteKind;
  job_name: string;
  /** Who did it. */
  user_name?: string;
  /** RFC 3339 with offset; default now. */
  datetime?: string;
  /** Default "Job <name> <verb> by <user>". */
  message?: string;
}
