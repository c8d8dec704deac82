/**
 * Log entries written by the jobs API about a tool's jobs (`POST /logs/v1/tool/{t}/source/jobs/log`):
 * an array whose items are one of four kinds — job created, updated, restarted, deleted (seeds/000).
 * The seed does not show their fields; the emulator's shape extends the published `JobsApiLog`
 * (`{datetime?, message, job_name = "", user_name = ""}`, logs-schemas.md) with a `type`
 * discriminator, and `message` optional (defaulting to "Job <name> <verb> by <user>"):
 *
 * `{"type": "job-created"|"job-updated"|"job-restarted"|"job-deleted", "job_name": str,
 *   "user_name"?: str, "datetime"?: aware date-time, "message"?: str}`
 *
 * The older single-object route `…/source/jobs-api/log` (body `JobsApiLog`) is served too. Stored
 * entries appear in the job's logs with empty `pod` and `container` (LogEntry's defaults).
 */
import { z } from 'zod';

/** The four kinds of write entries. */
export const WRITE_KINDS = ['job-created', 'job-updated', 'job-restarted', 'job-deleted'] as const;

const VERBS: Record<(typeof WRITE_KINDS)[number], string> = {
  'job-created': 'created',
  'job-updated': 'updated',
  'job-restarted': 'restarted',
  'job-deleted': 'deleted',
};

const awareDatetime = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|z|[+-]\d{2}:?\d{2})$/,
    'Input should have timezone info',
  )
  .refine((s) => !Number.isNaN(Date.parse(s.replace(' ', 'T'))), 'Input should be a valid datetime');

const entryFields = {
  job_name: z.string().min(1),
  user_name: z.string().optional(),
  datetime: awareDatetime.optional(),
  message: z.string().optional(),
};

const entryOf = <T extends (typeof WRITE_KINDS)[number]>(type: T) =>
  z.strictObject({ type: z.literal(type), ...entryFields });

/** One write entry of the array route. */
export const WriteEntry = z.discriminatedUnion('type', [
  entryOf('job-created'),
  entryOf('job-updated'),
  entryOf('job-restarted'),
  entryOf('job-deleted'),
]);

/** The array body. */
export const WriteEntries = z.array(WriteEntry);

/** `JobsApiLog`, the single-object body of the older route. */
export const JobsApiLog = z.strictObject({
  datetime: awareDatetime.optional(),
  message: z.string(),
  job_name: z.string().optional(),
  user_name: z.string().optional(),
});

/** What to store for one entry. */
export interface LogWrite {
  job: string;
  time?: number;
  message: string;
}

/** The stored form of a parsed array entry. */
export function writeOf(entry: z.infer<typeof WriteEntry>): LogWrite {
  const type = entry.type;
  const job = entry.job_name;
  const user = entry.user_name ? ` by ${entry.user_name}` : '';
  const message = entry.message ?? `Job ${job} ${VERBS[type]}${user}`;
  return { job, message, ...timeOf(entry.datetime) };
}

/** The stored form of a `JobsApiLog`. */
export function writeOfJobsApiLog(entry: z.infer<typeof JobsApiLog>): LogWrite {
  return { job: entry.job_name ?? '', message: entry.message, ...timeOf(entry.datetime) };
}

function timeOf(datetime: string | undefined): { time?: number } {
  return datetime !== undefined ? { time: Date.parse(datetime.replace(' ', 'T')) } : {};
}

/** Components-style messages for zod issues (`Validation error at 0 -> job_name: …`). */
export function issueMessages(issues: readonly z.core.$ZodIssue[], body: unknown): string[] {
  return issues.map((issue) => {
    const where = issue.path.map(String).join(' -> ') || 'body';
    let input: unknown = body;
    for (const key of issue.path) input = (input as Record<PropertyKey, unknown> | undefined)?.[key];
    const received =
      input === undefined || typeof input === 'object' ? '' : `. Received value: '${String(input)}'`;
    const msg = issue.code === 'invalid_type' && input === undefined ? 'Field required' : issue.message;
    return `Validation error at ${where}: ${msg}${received}`;
  });
}
