/** The jobs API: one-off, scheduled and continuous jobs of a tool (`/jobs/v1/tool/{tool}/…`). */
import { NotFoundError } from '../../core/errors';
import type { Quota, ServiceHealth } from './common-schemas';
import { type ErrorMapper, notFound } from './errors';
import {
  type Job,
  type JobImage,
  JobImagesResponseSchema,
  JobListResponseSchema,
  JobMessagesResponseSchema,
  JobQuotaResponseSchema,
  JobResponseSchema,
  JobsHealthSchema,
  JobUpdateResponseSchema,
  type JobUpdateResult,
  type NewJob,
} from './jobs-schemas';
import { type LogEntry, LogEntrySchema } from './logs-schemas';
import { definedOnly, type ToolCall, type ToolhostSession } from './session';

/** Options of {@link JobsApi.logs}. */
export interface JobLogsOptions {
  /** Last N lines (service default 500, max 5000; only the last hour). */
  lines?: number;
  /** Keep streaming new lines. */
  follow?: boolean;
  /** Stops the stream. */
  signal?: AbortSignal;
}

/** Jobs of one tool. Every operation needs the tool's client certificate. */
export class JobsApi {
  constructor(private readonly session: ToolhostSession) {}

  /**
   * The tool's jobs. `includeUnset` (service default true) adds the fields that were not given at
   * creation, with their defaults; false returns each job as it was defined (like `jobs dump`).
   */
  async list(options: { includeUnset?: boolean } = {}): Promise<Job[]> {
    const res = await this.call({
      method: 'GET',
      path: ['jobs'],
      route: 'jobs',
      schema: JobListResponseSchema,
      action: 'toolhost-api-action-list-jobs',
      query: options.includeUnset === undefined ? undefined : { include_unset: options.includeUnset },
    });
    return res.jobs;
  }

  /** Creates a job (409 when one of that name exists and has not completed); only set fields are sent. */
  async create(job: NewJob): Promise<Job> {
    const res = await this.call({
      method: 'POST',
      path: ['jobs'],
      route: 'jobs',
      schema: JobResponseSchema,
      action: 'toolhost-api-action-create-job',
      body: definedOnly(job),
    });
    return res.job;
  }

  /** Updates a job, or creates it when missing (one-off jobs cannot be updated). */
  async update(job: NewJob): Promise<JobUpdateResult> {
    const res = await this.call({
      method: 'PATCH',
      path: ['jobs'],
      route: 'jobs',
      schema: JobUpdateResponseSchema,
      action: 'toolhost-api-action-update-job',
      body: definedOnly(job),
    });
    return { changed: res.job_changed ?? true, messages: res.messages?.info ?? [] };
  }

  /** Stops and deletes every job of the tool; returns the service's info lines. */
  async flush(): Promise<string[]> {
    const res = await this.call({
      method: 'DELETE',
      path: ['jobs'],
      route: 'jobs',
      schema: JobMessagesResponseSchema,
      action: 'toolhost-api-action-delete-all-jobs',
    });
    return res.messages?.info ?? [];
  }

  /** One job by name. */
  async show(name: string): Promise<Job> {
    const res = await this.call({
      method: 'GET',
      path: ['jobs', name],
      route: 'jobs/{name}',
      schema: JobResponseSchema,
      action: 'toolhost-api-action-show-job',
      onError: this.jobNotFound(name),
    });
    return res.job;
  }

  /** Stops and deletes one job; returns the service's info lines. */
  async delete(name: string): Promise<string[]> {
    const res = await this.call({
      method: 'DELETE',
      path: ['jobs', name],
      route: 'jobs/{name}',
      schema: JobMessagesResponseSchema,
      action: 'toolhost-api-action-delete-job',
      onError: this.jobNotFound(name),
    });
    return res.messages?.info ?? [];
  }

  /** Restarts a job (a scheduled job runs now); returns the service's info lines. */
  async restart(name: string): Promise<string[]> {
    const res = await this.call({
      method: 'POST',
      path: ['jobs', name, 'restart'],
      route: 'jobs/{name}/restart',
      schema: JobMessagesResponseSchema,
      action: 'toolhost-api-action-restart-job',
      onError: this.jobNotFound(name),
    });
    return res.messages?.info ?? [];
  }

  /**
   * The job's log entries as they arrive (NDJSON `{pod, container, datetime, message}`). A 404 means
   * no job, no recent logs, or logs written to files. A mid-stream error is thrown after the entries.
   */
  logs(name: string, options: JobLogsOptions = {}): AsyncGenerator<LogEntry, void, undefined> {
    const tool = this.session.tool;
    return this.session.stream({
      api: 'jobs',
      path: ['jobs', name, 'logs'],
      route: 'jobs/{name}/logs',
      schema: LogEntrySchema,
      action: 'toolhost-api-action-read-job-logs',
      query: definedOnly({ lines: options.lines, follow: options.follow }),
      signal: options.signal,
      live: options.follow === true,
      onError: (error) =>
        error.status === 404
          ? new NotFoundError(
              (say) => ({
                message: say.t(
                  'toolhost-api-no-job-logs',
                  name,
                  tool,
                  error.words?.(say).message ?? error.message,
                ),
              }),
              undefined,
              { cause: error },
            )
          : undefined,
    });
  }

  /** Container images a job can use. */
  async images(): Promise<JobImage[]> {
    const res = await this.call({
      method: 'GET',
      path: ['images'],
      route: 'images',
      schema: JobImagesResponseSchema,
      action: 'toolhost-api-action-list-job-images',
    });
    return res.images;
  }

  /** The tool's job quotas (running jobs, per-job limits, job definitions). */
  async quotas(): Promise<Quota> {
    const res = await this.call({
      method: 'GET',
      path: ['quotas'],
      route: 'quotas',
      schema: JobQuotaResponseSchema,
      action: 'toolhost-api-action-show-job-quota',
    });
    return res.quota;
  }

  /** Health of the jobs API (no authentication). */
  healthz(): Promise<ServiceHealth> {
    return this.session.health('/jobs/v1/healthz', JobsHealthSchema);
  }

  /** Prometheus metrics of the jobs API (no authentication). */
  metrics(): Promise<string> {
    return this.session.metrics('/jobs/v1/metrics');
  }

  private call<T>(call: Omit<ToolCall<T>, 'api'>): Promise<T> {
    return this.session.call({ api: 'jobs', ...call });
  }

  private jobNotFound(name: string): ErrorMapper {
    return notFound((say) => ({ message: say.t('toolhost-api-job-not-found', name, this.session.tool) }));
  }
}
