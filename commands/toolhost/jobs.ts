import { z } from 'zod';
import { NotFoundError, UpstreamError, UsageError } from '../../src/core/errors';
import { fingerprint, mustExist } from '../../src/core/target';
import type { Job } from '../../src/services/toolhost';
import { jobName, toolName } from '../args';
import { quotaFields, table, withWarnings } from '../format';
import { toolCommand } from './context';
import { jobCard, jobState } from './job-card';
import { jobRestartedSince } from './recognise';
import { jobsDeleteSignature, jobsRestartSignature, jobsShowSignature } from './signatures';

/**
 * A job's definition without its changing state: a job deleted and created again under the same
 * name with another command, image or schedule gets another digest.
 */
function definition(job: Job): string {
  const { status: _status, status_short: _short, status_long: _long, ...defined } = job;
  return fingerprint(defined);
}

/** `/jobs list <tool>`. */
export const jobsListCommand = toolCommand({
  name: 'jobs list',
  permission: 'read',
  async run({ args, client }) {
    const jobs = await client.jobs.list();
    if (jobs.length === 0) {
      return { text: `${args.tool} has no jobs. Create one with /jobs run.`, status: 'info' };
    }
    const rows = jobs.map((job) => [job.name, job.job_type, jobState(job), job.schedule ?? '']);
    return {
      title: `Jobs of ${args.tool}`,
      code: { text: table([['NAME', 'TYPE', 'STATUS', 'SCHEDULE'], ...rows]) },
      status: 'info',
    };
  },
});

/** `/jobs show <tool> <job>`. */
export const jobsShowCommand = toolCommand({
  ...jobsShowSignature,
  positional: ['tool', 'job'],
  examples: ['/jobs show mytool web'],
  permission: 'read',
  async run({ args, client }) {
    return jobCard(args.tool, await client.jobs.show(args.job));
  },
});

/** The `/jobs run` line that creates `job` again (its command and image). */
export function runAgainLine(tool: string, job: Job): string {
  const image = job.imagename ?? job.image ?? '<image>';
  return `/jobs run ${tool} ${job.name} --command ${JSON.stringify(job.cmd)} --image ${image}`;
}

/** `/jobs restart <tool> <job>`: restarts a continuous job, or runs a scheduled one now. */
export const jobsRestartCommand = toolCommand({
  ...jobsRestartSignature,
  positional: ['tool', 'job'],
  examples: ['/jobs restart mytool web'],
  permission: 'write',
  guarded: true,
  effect: {
    check: (args) => `/jobs show ${args.tool} ${args.job}`,
    // A job restarted since the interrupted attempt began was restarted by it: shown, not restarted again.
    async recover({ args, services }, since) {
      const client = services.toolhost.forTool(args.tool);
      const job = await client.jobs.show(args.job);
      const restarted = jobRestartedSince(job, since);
      if (restarted === undefined) return undefined;
      return restarted ? withWarnings(jobCard(args.tool, job, `Job ${args.job} restarted.`), client) : 'run';
    },
  },
  async run({ args, client }) {
    const messages = await client.jobs.restart(args.job).catch(async (error: unknown) => {
      if (!(error instanceof UpstreamError) || error.status >= 500) throw error;
      const job = await client.jobs.show(args.job).catch(() => undefined);
      if (job?.job_type !== 'one-off') throw error;
      // A one-off job cannot be restarted: it runs again as a new job of the same name.
      throw new UsageError(`Job ${args.job} of ${args.tool} is a one-off job, so it cannot be restarted.`, {
        hint: `Run it again with ${runAgainLine(args.tool, job)} (once it has finished, the new run replaces it). Nothing was changed.`,
      });
    });
    const job = await client.jobs.show(args.job);
    const note = messages.length ? messages.join('\n') : `Job ${args.job} restarted.`;
    return jobCard(args.tool, job, note);
  },
});

/** `/jobs delete <tool> <job>` (confirmed first). */
export const jobsDeleteCommand = toolCommand({
  ...jobsDeleteSignature,
  positional: ['tool', 'job'],
  examples: ['/jobs delete mytool daily-report'],
  permission: 'write',
  guarded: true,
  confirm: (args) => `Stop and delete job ${args.job} of ${args.tool}?`,
  async resolve({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    const job = await mustExist(
      () => client.jobs.show(args.job),
      `Job ${args.job} of ${args.tool} does not exist.`,
      `See /jobs list ${args.tool}.`,
    );
    return { label: `Job ${args.job} of ${args.tool}`, args, version: definition(job) };
  },
  async run({ args, client }) {
    const messages = await client.jobs.delete(args.job);
    return { text: messages.join('\n') || `Deleted job ${args.job} of ${args.tool}.`, status: 'success' };
  },
});

/** `/jobs flush <tool>` (confirmed first): stops and deletes every job, as listed in the question. */
export const jobsFlushCommand = toolCommand({
  name: 'jobs flush',
  args: z.object({
    tool: toolName,
    /** Set by `resolve`: the jobs the question listed (a new job makes the Confirm refuse). */
    jobs: z.array(jobName).optional().meta({ hidden: true }),
  }),
  permission: 'write',
  guarded: true,
  confirm: (args) =>
    `Stop and delete EVERY job of ${args.tool} (${args.jobs?.length ?? 0}: ${(args.jobs ?? []).join(', ')})? Continuous jobs stop serving at once.`,
  async resolve({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    const jobs = [...(await client.jobs.list())].sort((a, b) => a.name.localeCompare(b.name));
    if (jobs.length === 0) {
      throw new NotFoundError(`${args.tool} has no jobs, so there is nothing to delete.`);
    }
    return {
      label: `The set of jobs of ${args.tool}`,
      args: { ...args, jobs: jobs.map((job) => job.name) },
      version: fingerprint(jobs.map(definition)),
    };
  },
  async run({ args, client }) {
    const messages = await client.jobs.flush();
    return { text: messages.join('\n') || `Deleted every job of ${args.tool}.`, status: 'success' };
  },
});

/** `/jobs images <tool>`. */
export const jobsImagesCommand = toolCommand({
  name: 'jobs images',
  permission: 'read',
  async run({ args, client }) {
    const images = await client.jobs.images();
    const rows = images.map((image) => [image.shortname, image.image ?? '']);
    return {
      title: `Images for jobs of ${args.tool}`,
      code: { text: table([['SHORT NAME', 'IMAGE'], ...rows]) },
      status: 'info',
    };
  },
});

/** `/jobs quota <tool>`. */
export const jobsQuotaCommand = toolCommand({
  name: 'jobs quota',
  permission: 'read',
  async run({ args, client }) {
    return {
      title: `Jobs quota of ${args.tool}`,
      fields: quotaFields(await client.jobs.quotas()),
      status: 'info',
    };
  },
});
