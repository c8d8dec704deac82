/**
 * A tool's web service as the platform has it today: its continuous job with a published port
 * (`publish: "/"`, at most one per tool), answering at `https://<tool>.toolforge.org/`
 * (toolforge-jobs-api def0efb "support exposing continuous jobs to the internet"; the legacy
 * `webservice` endpoint of 3fbc98a turns a webservice into exactly such a job and tells clients to
 * use `/jobs` with `publish` instead). This module finds it, draws its card and follows a restart.
 */
import { actionTo } from '../../src/core/action-ref';
import type { CardField, DraftCard } from '../../src/core/reply';
import type { WatchKind } from '../../src/core/watch';
import type { Job, ToolhostClient } from '../../src/services/toolhost';
import { withWarnings } from '../format';
import type { AppServices } from '../services';
import { announcement, stoppedFollowing } from './announce';
import { jobState, jobStatus } from './job-card';
import {
  webserviceLogsSignature,
  webserviceRestartSignature,
  webserviceStatusSignature,
  webserviceStopSignature,
} from './signatures';

/** Whether a job is a web service: continuous with `publish: "/"`. */
export function isWebservice(job: Job): boolean {
  return job.job_type === 'continuous' && job.publish === '/';
}

/** The tool's web service (its published job), if it has one. */
export async function findWebservice(client: ToolhostClient): Promise<Job | undefined> {
  return (await client.jobs.list()).find(isWebservice);
}

/** The web service's state in a sentence. */
export function webserviceSentence(tool: string, job: Job, url: string): string {
  switch (job.status?.short) {
    case 'running':
      return `The web service of ${tool} is running at ${url}`;
    case 'pending':
      return `The web service of ${tool} is starting (${jobState(job)}).`;
    case 'failed':
      return `The web service of ${tool} is down: ${jobState(job)}. See its logs, then restart it.`;
    default:
      return `The web service of ${tool} is ${jobState(job)}.`;
  }
}

/** The card of a tool's web service, with Restart, Logs and Stop buttons. */
export function webserviceCard(tool: string, job: Job, url: string, note?: string): DraftCard {
  const fields: CardField[] = [
    { label: 'URL', value: url },
    { label: 'Status', value: jobState(job), inline: true },
    { label: 'Job', value: job.name, inline: true },
    { label: 'Port', value: job.port ? String(job.port) : 'none', inline: true },
    { label: 'Image', value: job.imagename ?? job.image ?? 'unknown', inline: true },
    { label: 'Command', value: job.cmd },
  ];
  if (job.replicas) fields.push({ label: 'Replicas', value: String(job.replicas), inline: true });
  if (job.status?.duration) fields.push({ label: 'For', value: job.status.duration, inline: true });
  const text = [note, webserviceSentence(tool, job, url)].filter(Boolean).join('\n');
  return {
    title: `Web service of ${tool}`,
    text,
    status: jobStatus(job),
    fields,
    actions: [
      actionTo(webserviceRestartSignature, { tool }, { label: 'Restart', style: 'primary' }),
      actionTo(webserviceLogsSignature, { tool }, { label: 'Logs' }),
      actionTo(webserviceStopSignature, { tool }, { label: 'Stop', style: 'danger' }),
    ],
  };
}

/**
 * Follows a web service after `/webservice start|restart` until its pod runs (or fails), editing the
 * card in place. The watched id is the job's name.
 */
export const webserviceWatch: WatchKind<AppServices> = {
  name: 'webservice',
  async observe(services, tool, id) {
    const client = services.toolhost.forTool(tool);
    const job = await client.jobs.show(id);
    const short = job.status?.short ?? 'unknown';
    const terminal = short === 'running' || short === 'failed' || short === 'succeeded';
    return {
      state: short,
      terminal,
      ...(short === 'running' ? { outcome: 'success' as const } : {}),
      ...(short === 'failed' ? { outcome: 'failure' as const } : {}),
      detail: `The web service of ${tool} is ${jobState(job)}.`,
      card: withWarnings(webserviceCard(tool, job, services.toolhost.publicUrl(tool)), client),
    };
  },
  gaveUp(tool, _id, lastCard, reason) {
    return stoppedFollowing(
      lastCard,
      { title: `Web service of ${tool}` },
      'the web service',
      reason,
      `/webservice status ${tool}`,
    );
  },
  announce(event) {
    return announcement(
      event,
      'web service',
      actionTo(webserviceStatusSignature, { tool: event.tool }, { label: 'Show' }),
    );
  },
};
