/**
 * Schemas of the jobs API (`/jobs/v1`, OpenAPI 4.11.1 plus `publish` from the live API). Request
 * bodies are typed exactly as the API defines them; the service validates them (its 400/422
 * messages reach the user). Job answers keep unknown fields.
 */
import { z } from 'zod';
import { list, messagesField, QuotaSchema } from './common-schemas';

/** Job email setting. */
export const JobEmailsSchema = z.enum(['none', 'all', 'onfinish', 'onfailure']);

/** Health check of a continuous job: a script in the container, or an HTTP path (needs `port`). */
export const HealthCheckSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('script'), script: z.string() }),
  z.object({ type: z.literal('http'), path: z.string() }),
]);
/** Health check of a continuous job. */
export type HealthCheck = z.output<typeof HealthCheckSchema>;

const commonJob = {
  /** RFC 1123 name, at most 52 characters. */
  name: z
    .string()
    .max(52)
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/),
  /** Command to run. */
  cmd: z.string().min(1),
  /** Short image name (`python3.11`) or build-service image (`tool-<t>/<img>:latest`). */
  imagename: z.string().min(1),
  filelog: z.boolean().optional(),
  filelog_stdout: z.string().nullish(),
  filelog_stderr: z.string().nullish(),
  emails: JobEmailsSchema.optional(),
  /** NFS mounts; `none` only for build-service images. */
  mount: z.enum(['all', 'none']).optional(),
  /** E.g. `512Mi` (default), `1G`. */
  memory: z.string().nullish(),
  /** E.g. `100m` (default), `1`. */
  cpu: z.string().nullish(),
};

/** Body creating a one-off job. */
export const NewOneOffJobSchema = z.object({
  ...commonJob,
  job_type: z.literal('one-off'),
  retry: z.number().int().min(0).max(5).optional(),
});

/** Body creating a scheduled job. */
export const NewScheduledJobSchema = z.object({
  ...commonJob,
  job_type: z.literal('scheduled'),
  /** Cron expression or `@hourly`, `@daily`… */
  schedule: z.string().min(1),
  retry: z.number().int().min(0).max(5).optional(),
  /** Seconds before a run is failed. */
  timeout: z.number().int().min(0).nullish(),
});

/** Body creating a continuous job (no `retry`: the API refuses it for continuous jobs). */
export const NewContinuousJobSchema = z.object({
  ...commonJob,
  job_type: z.literal('continuous'),
  replicas: z.number().int().min(1).nullish(),
  port: z.number().int().min(1).max(65535).nullish(),
  port_protocol: z.enum(['tcp', 'udp']).optional(),
  health_check: HealthCheckSchema.nullish(),
  /** Only `/`: expose the job at https://<tool>.toolforge.org/. */
  publish: z.string().optional(),
});

/** Body of job create and update: one of the three shapes, told apart by `job_type`. */
export const NewJobSchema = z.discriminatedUnion('job_type', [
  NewOneOffJobSchema,
  NewScheduledJobSchema,
  NewContinuousJobSchema,
]);
/** Body of job create and update. */
export type NewJob = z.input<typeof NewJobSchema>;
/** Body creating a one-off job. */
export type NewOneOffJob = z.input<typeof NewOneOffJobSchema>;
/** Body creating a scheduled job. */
export type NewScheduledJob = z.input<typeof NewScheduledJobSchema>;
/** Body creating a continuous job. */
export type NewContinuousJob = z.input<typeof NewContinuousJobSchema>;

/** Short job state. */
export const JobStatusShortSchema = z.enum(['pending', 'running', 'succeeded', 'failed', 'unknown']);
/** Short job state. */
export type JobStatusShort = z.output<typeof JobStatusShortSchema>;

/** A job's status (v2): state, details such as `exitcode 1`, how long, and the schedule. */
export const JobStatusSchema = z.looseObject({
  short: JobStatusShortSchema,
  messages: list(z.string()),
  /** E.g. `2d3h4m5s`. */
  duration: z.string().nullish(),
  /** False when the running version differs from the definition. */
  up_to_date: z.boolean().nullish(),
  previous_schedule: z.string().nullish(),
  next_schedule: z.string().nullish(),
});
/** A job's status (v2). */
export type JobStatus = z.output<typeof JobStatusSchema>;

/** Kind of job. */
export type JobType = 'one-off' | 'scheduled' | 'continuous';

/** A defined job. `job_type` is always set (derived from legacy fields when the API omits it). */
export const JobSchema = z
  .looseObject({
    name: z.string(),
    cmd: z.string(),
    imagename: z.string().nullish(),
    /** Full image reference. */
    image: z.string().nullish(),
    /** `stable`, `deprecated`… */
    image_state: z.string().nullish(),
    job_type: z.enum(['one-off', 'scheduled', 'continuous']).nullish(),
    continuous: z.boolean().nullish(),
    schedule: z.string().nullish(),
    schedule_actual: z.string().nullish(),
    timeout: z.number().nullish(),
    retry: z.number().nullish(),
    replicas: z.number().nullish(),
    port: z.number().nullish(),
    port_protocol: z.string().nullish(),
    health_check: HealthCheckSchema.nullish().catch(null),
    publish: z.string().nullish(),
    filelog: z.boolean().nullish(),
    filelog_stdout: z.string().nullish(),
    filelog_stderr: z.string().nullish(),
    emails: z.string().nullish(),
    mount: z.string().nullish(),
    memory: z.string().nullish(),
    cpu: z.string().nullish(),
    /** Legacy short status: `Running`, `Completed`, `Waiting for scheduled time`… */
    status_short: z.string().nullish(),
    /** Legacy status sentence. */
    status_long: z.string().nullish(),
    status: JobStatusSchema.nullish(),
  })
  .transform((job) => ({
    ...job,
    job_type: (job.job_type ??
      (job.continuous ? 'continuous' : job.schedule ? 'scheduled' : 'one-off')) as JobType,
  }));
/** A defined job. */
export type Job = z.output<typeof JobSchema>;

/** A container image usable for a job. */
export const JobImageSchema = z.object({
  /** Short name for `imagename`, e.g. `python3.11`. */
  shortname: z.string(),
  image: z.string().nullish(),
});
/** A container image usable for a job. */
export type JobImage = z.output<typeof JobImageSchema>;

/** Result of a job update-or-create (PATCH). */
export interface JobUpdateResult {
  /** False when the job was already up to date. */
  changed: boolean;
  /** The service's info lines ("Job x is already up to date"…). */
  messages: string[];
}

/** `GET /jobs`. */
export const JobListResponseSchema = z.object({ jobs: list(JobSchema), messages: messagesField });
/** `POST /jobs`, `GET /jobs/{name}`. */
export const JobResponseSchema = z.object({ job: JobSchema, messages: messagesField });
/** `PATCH /jobs`. */
export const JobUpdateResponseSchema = z.object({
  job_changed: z.boolean().nullish(),
  messages: messagesField,
});
/** `DELETE /jobs`, `DELETE /jobs/{name}`, `POST /jobs/{name}/restart`. */
export const JobMessagesResponseSchema = z.object({ messages: messagesField });
/** `GET /images`. */
export const JobImagesResponseSchema = z.object({ images: list(JobImageSchema), messages: messagesField });
/** `GET /quotas`. */
export const JobQuotaResponseSchema = z.object({
  /** Optional in jobs-openapi.yaml `QuotaResponse`; absent reads as no categories. */
  quota: QuotaSchema.nullish().transform((value) => value ?? { categories: [] }),
  messages: messagesField,
});
/** `GET /healthz`, normalised. */
export const JobsHealthSchema = z
  .object({
    health: z.object({ status: z.enum(['OK', 'ERROR']), message: z.string().nullish() }),
    messages: messagesField,
  })
  .transform((body) => ({
    status: body.health.status,
    ...(body.health.message ? { message: body.health.message } : {}),
  }));
