/**
 * `GET /jobs/v1/tool/{tool_name}/jobs/{name}/logs` (J `tjf/api/jobs.py api_get_logs`,
 * `tjf/loki_logs.py`): `text/plain` with one JSON object per line,
 * `{"pod": …, "container": …, "datetime": "2026-08-20T10:00:00+00:00", "message": …}`
 * (Python `json.dumps` spacing, seconds precision).
 *
 * - `lines`: default 500, at most 5000 (400 above); not an integer → 400.
 * - Without `follow`, the real API asks Loki for the last hour *oldest first* with `limit=lines`,
 *   so it returns the **oldest** `lines` lines of the last hour; the emulator does the same.
 * - `follow=true` (only that exact string) tails: the last `lines` lines, then new ones as the job
 *   prints them, until the client disconnects or the sandbox closes.
 * - 404 when the job was defined with `filelog: true`, or when it has no logs in the last hour
 *   (a job whose resolved `filelog` is true — the default for prebuilt images — never has any).
 *   With `follow=true` and no logs yet, the answer waits for the first line, as the real one does.
 * - Events written by the jobs API itself (logs API `source` entries) are not pod logs and are not
 *   served here.
 */
import type { Context } from 'hono';
import { type SandboxContext, timersOf } from './context';
import type { JobsRuntime } from './jobs-engine';
import { jobNameProblem, jobsError } from './jobs-validate';
import type { StoredLogLine } from './logs-store';
import { asciiJson, liveLogStream } from './logs-stream';

/** Default and maximum of `lines`. */
export const JOBS_LOGS_LINES = { default: 500, max: 5000 } as const;

const HOUR_MS = 3_600_000;

/** One NDJSON line of the jobs API's logs. */
export function formatJobsLogLine(line: StoredLogLine): string {
  const datetime = new Date(Math.floor(line.time / 1000) * 1000).toISOString().replace(/\.000Z$/, '+00:00');
  return `{"pod": ${asciiJson(line.pod)}, "container": ${asciiJson(line.container)}, "datetime": "${datetime}", "message": ${asciiJson(line.message)}}\n`;
}

const isPodLine = (line: StoredLogLine) => line.source === 'pod';

/** Handles the jobs API's logs endpoint for `tool`'s job `name`. */
export async function jobsLogsHandler(
  c: Context,
  ctx: SandboxContext,
  runtime: JobsRuntime,
  tool: string,
  name: string,
): Promise<Response> {
  const problem = jobNameProblem(name);
  if (problem) return c.json(jobsError(problem), 400);
  const job = runtime.get(tool, name);
  if (job?.spec.filelog === true) {
    return c.json(
      jobsError(`Job '${name}' has file logging enabled, which is incompatible with the logs command`),
      404,
    );
  }
  let lines: number = JOBS_LOGS_LINES.default;
  const rawLines = c.req.query('lines');
  if (rawLines !== undefined) {
    if (!/^\s*[+-]?\d+\s*$/.test(rawLines)) {
      return c.json(
        jobsError(`Unable to parse lines as integer (invalid literal for int() with base 10: '${rawLines}')`),
        400,
      );
    }
    lines = Number(rawLines) || JOBS_LOGS_LINES.default;
  }
  if (lines < 0) return c.json(jobsError(`Requested number of ${lines} lines is invalid`), 400);
  if (lines > JOBS_LOGS_LINES.max) {
    return c.json(
      jobsError(`Requested number of ${lines} lines is over limit of ${JOBS_LOGS_LINES.max}`),
      400,
    );
  }
  const follow = c.req.query('follow') === 'true';
  const now = Date.now();
  const lastHour = () =>
    runtime.logs.range(tool, name, now - HOUR_MS, Number.MAX_SAFE_INTEGER).filter(isPodLine);
  let recent = lastHour();
  const headers = { 'content-type': 'text/plain; charset=utf8', 'x-accel-buffering': 'no' };
  const noLogs = () => c.json(jobsError(`Job '${name}' does not have any logs available`), 404);

  if (!follow) {
    if (recent.length === 0) return noLogs();
    return c.body(recent.slice(0, lines).map(formatJobsLogLine).join(''), 200, headers);
  }
  if (recent.length === 0) {
    // The real API peeks at the tail's first entry before answering.
    const first = await firstLine(ctx, runtime, tool, name, c.req.raw.signal);
    if (!first) return noLogs();
    // Everything printed with (and since) that first line, read in the tick the stream subscribes.
    recent = lastHour();
  }
  const stream = liveLogStream({
    ctx,
    store: runtime.logs,
    tool,
    job: name,
    initial: recent.slice(-lines).map(formatJobsLogLine),
    format: (line) => (isPodLine(line) ? formatJobsLogLine(line) : undefined),
    signal: c.req.raw.signal,
  });
  return c.body(stream, 200, headers);
}

/** Resolves with the job's next pod line, or undefined when the client or the sandbox goes away. */
function firstLine(
  ctx: SandboxContext,
  runtime: JobsRuntime,
  tool: string,
  name: string,
  signal: AbortSignal,
): Promise<StoredLogLine | undefined> {
  return new Promise((resolve) => {
    const done = (line?: StoredLogLine) => {
      unsubscribe();
      unregister();
      signal.removeEventListener('abort', onAbort);
      resolve(line);
    };
    const onAbort = () => done();
    const unsubscribe = runtime.logs.subscribe(tool, name, (line) => {
      if (isPodLine(line)) done(line);
    });
    let unregister: () => void = () => {};
    const timers = timersOf(ctx);
    if (timers.closed) return done();
    unregister = timers.onClose(() => done());
    signal.addEventListener('abort', onAbort);
  });
}
