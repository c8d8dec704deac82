/**
 * What a failure announcement shows of a failed job or deployment: the last lines it printed, the
 * exit code and the restarts the platform reports. Read once, when the failure is seen; a part the
 * platform cannot give (no certificate, file logs, a build log gone) is left out, never guessed.
 */
import type { FailureFacts } from '../../core/watch';
import type { ToolhostClient } from './client';
import { jobOutcome } from './job-state';
import type { Job } from './jobs-schemas';

/** Lines of log a failure card shows. */
export const FAILURE_LOG_LINES = 10;

/** The number in a status message such as `exitcode 1` or `restarted (3)`. */
function numberIn(messages: readonly string[], pattern: RegExp): number | undefined {
  for (const message of messages) {
    const match = pattern.exec(message);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** The restarts a job's status reports (`restarted (N)`), if it reports any. */
export function jobRestarts(job: Job): number | undefined {
  return numberIn(job.status?.messages ?? [], /^restarted \((\d+)\)$/);
}

/** Whether a job is well now (running or succeeded), and its restarts so far. */
export async function jobHealth(
  client: ToolhostClient,
  name: string,
): Promise<{ well: boolean; restarts?: number | undefined }> {
  const job = await client.jobs.show(name);
  return { well: jobOutcome(job) === 'success', restarts: jobRestarts(job) };
}

/** A failed job's facts: exit code and restarts from its status, its last log lines. */
export async function jobFailureFacts(client: ToolhostClient, job: Job): Promise<FailureFacts> {
  const messages = job.status?.messages ?? [];
  const exitCode = numberIn(messages, /^exitcode (-?\d+)$/);
  const restarts = jobRestarts(job);
  const lines = await client.logs
    .jobLogs(job.name, { lines: FAILURE_LOG_LINES, direction: 'newest_first' })
    .then((page) => page.logs.map((entry) => entry.message).reverse())
    .catch(() => []);
  return {
    jobType: job.job_type,
    ...(exitCode !== undefined ? { exitCode } : {}),
    ...(restarts !== undefined ? { restarts } : {}),
    ...(lines.length ? { lines } : {}),
  };
}

/** The last lines of a finished build's log (none when it cannot be read). */
export async function buildLogTail(client: ToolhostClient, buildId: string): Promise<string[]> {
  const tail: string[] = [];
  try {
    for await (const entry of client.builds.logs(buildId)) {
      tail.push(entry.line);
      if (tail.length > FAILURE_LOG_LINES) tail.shift();
    }
  } catch {
    // The lines read before the error are still the last ones known.
  }
  return tail;
}
