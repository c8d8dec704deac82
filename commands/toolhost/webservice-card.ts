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
import { type Translator, translator } from '../../src/i18n/translate';
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

const ENGLISH = translator('en');

/** The web service's state in a sentence (the job's state is the platform's words). */
export function webserviceSentence(tool: string, job: Job, url: string, say: Translator = ENGLISH): string {
  switch (job.status?.short) {
    case 'running':
      return say.t('webservice-running', tool, url);
    case 'pending':
      return say.t('webservice-starting', tool, jobState(job));
    case 'failed':
      return say.t('webservice-down', tool, jobState(job));
    default:
      return say.t('webservice-state', tool, jobState(job));
  }
}

/** The card of a tool's web service, with Restart, Logs and Stop buttons. */
export function webserviceCard(
  tool: string,
  job: Job,
  url: string,
  note?: string,
  say: Translator = ENGLISH,
): DraftCard {
  const fields: CardField[] = [
    { label: say.t('webservice-field-url'), value: url },
    { label: say.t('deploy-field-status'), value: jobState(job), inline: true },
    { label: say.t('webservice-field-job'), value: job.name, inline: true },
    {
      label: say.t('webservice-field-port'),
      value: job.port ? String(job.port) : say.t('tool-status-none'),
      inline: true,
    },
    {
      label: say.t('build-field-image'),
      value: job.imagename ?? job.image ?? say.t('deploy-field-unknown'),
      inline: true,
    },
    { label: say.t('webservice-field-command'), value: job.cmd },
  ];
  if (job.replicas)
    fields.push({ label: say.t('webservice-field-replicas'), value: String(job.replicas), inline: true });
  if (job.status?.duration)
    fields.push({ label: say.t('webservice-field-for'), value: job.status.duration, inline: true });
  const text = [note, webserviceSentence(tool, job, url, say)].filter(Boolean).join('\n');
  return {
    title: say.t('webservice-card-title', tool),
    text,
    status: jobStatus(job),
    fields,
    actions: [
      actionTo(
        webserviceRestartSignature,
        { tool },
        { label: say.t('webservice-button-restart'), style: 'primary' },
      ),
      actionTo(webserviceLogsSignature, { tool }, { label: say.t('announce-button-logs') }),
      actionTo(
        webserviceStopSignature,
        { tool },
        { label: say.t('webservice-button-stop'), style: 'danger' },
      ),
    ],
    locale: say.language,
  };
}

/**
 * Follows a web service after `/webservice start|restart` until its pod runs (or fails), editing the
 * card in place. The watched id is the job's name.
 */
export const webserviceWatch: WatchKind<AppServices> = {
  name: 'webservice',
  async observe(services, tool, id, say = ENGLISH) {
    const client = services.toolhost.forTool(tool);
    const job = await client.jobs.show(id);
    const short = job.status?.short ?? 'unknown';
    const terminal = short === 'running' || short === 'failed' || short === 'succeeded';
    return {
      state: short,
      terminal,
      ...(short === 'running' ? { outcome: 'success' as const } : {}),
      ...(short === 'failed' ? { outcome: 'failure' as const } : {}),
      // Stored with the event for every subscribed conversation: English.
      detail: ENGLISH.t('webservice-state', tool, jobState(job)),
      card: withWarnings(
        webserviceCard(tool, job, services.toolhost.publicUrl(tool), undefined, say),
        client,
      ),
    };
  },
  gaveUp(tool, _id, lastCard, reason) {
    return stoppedFollowing(
      lastCard,
      { title: ENGLISH.t('webservice-card-title', tool) },
      ENGLISH.t('webservice-the'),
      reason,
      `/webservice status ${tool}`,
    );
  },
  announce(event, say = ENGLISH) {
    return announcement(
      event,
      ENGLISH.t('announce-noun-webservice'),
      actionTo(webserviceStatusSignature, { tool: event.tool }, { label: say.t('announce-button-show') }),
      [],
      { say, noun: say.t('announce-noun-webservice'), footer: say.t('announce-footer-webservice', event.id) },
    );
  },
};
