/**
 * `/jobs dump <tool>` (the jobs file, as a file) and `/jobs load <tool>` (apply a jobs file, attached
 * or with `--from-repo` the tool's repository's `jobs.yaml`, jobs-repo.ts: create the jobs that are
 * new, update in place those that changed, delete those no longer listed, after a confirmation
 * showing the plan). As `toolforge jobs load` does it today: one `PATCH /jobs` per job
 * (create or update in place; specs/toolforge/README.md "How the CLIs drive these"), the definitions
 * compared with `include_unset=false` as `jobs dump` reads them. One-off jobs cannot be updated
 * (J `tjf/core/core.py update_job`), so a changed one-off job is deleted and created again.
 */
import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import { NotFoundError, UsageError } from '../../src/core/errors';
import type { FilesDeclaration } from '../../src/core/files';
import { translators } from '../../src/core/languages';
import { fingerprint } from '../../src/core/target';
import { type Translator, translator } from '../../src/i18n/translate';
import type { Job, NewJob } from '../../src/services/toolhost';
import { existingJob, toolName } from '../args';
import { fieldChanges } from '../data-diff';
import { table, withWarnings } from '../format';
import { command, toolCommand } from './context';
import { jobsListCommand } from './jobs';
import { comparable, definitionOf, jobsFileText, jobToEntry } from './jobs-file';
import { jobsToLoad, repoJobsFile } from './jobs-repo';

/** What `/jobs load` will do. */
export interface LoadPlan {
  create: NewJob[];
  update: { job: NewJob; fields: string[] }[];
  unchanged: string[];
  remove: string[];
}

/** Compares the wanted jobs with the current definitions; `only` limits it to one job. */
export function loadPlan(wanted: readonly NewJob[], current: readonly Job[], only?: string): LoadPlan {
  const inScope = (name: string) => only === undefined || name === only;
  const byName = new Map(
    current.filter((j) => inScope(j.name)).map((j) => [j.name, comparable(definitionOf(j))]),
  );
  const plan: LoadPlan = { create: [], update: [], unchanged: [], remove: [] };
  for (const job of wanted.filter((j) => inScope(j.name))) {
    const existing = byName.get(job.name);
    if (!existing) {
      plan.create.push(job);
      continue;
    }
    const fields = [
      ...new Set(
        fieldChanges(existing, comparable(definitionOf(job))).map((c) => c.path.split('.')[0] ?? c.path),
      ),
    ];
    if (fields.length) plan.update.push({ job, fields });
    else plan.unchanged.push(job.name);
  }
  const names = new Set(wanted.map((j) => j.name));
  plan.remove = [...byName.keys()].filter((name) => !names.has(name)).sort();
  return plan;
}

/** The plan as a table, one job per row. */
function planTable(plan: LoadPlan, say: Translator): string {
  const rows = [
    ...plan.create.map((j) => ['create', j.name, j.job_type]),
    ...plan.update.map(({ job, fields }) => [
      'update',
      job.name,
      say.t('jobs-load-changes', fields.join(', ')),
    ]),
    ...plan.remove.map((name) => ['delete', name, say.t('jobs-load-not-in-file')]),
    ...plan.unchanged.map((name) => ['keep', name, say.t('jobs-load-unchanged')]),
  ];
  return table([['ACTION', 'JOB', 'DETAIL'], ...rows]);
}

const ENGLISH = translator('en');

/** The plan in a line. */
const count = (plan: LoadPlan, say: Translator) =>
  say.t('jobs-load-count', plan.create.length, plan.update.length, plan.remove.length, plan.unchanged.length);

const loadArgs = z.object({
  tool: toolName,
  job: existingJob.optional().describe('opt-job-jobs-load'),
  fromRepo: z.boolean().optional().describe('opt-from-repo'),
  path: z.string().min(1).max(500).optional().describe('opt-path'),
  ref: z.string().min(1).max(250).optional().describe('opt-ref-jobs-load'),
  /** The checked jobs as JSON: set by the confirmation step from the attached file. */
  content: z.string().min(2).max(500_000).optional().meta({ hidden: true }),
});

/** Content for the stored arguments: the jobs back in the file's own format (checked again on Confirm). */
const asContent = (jobs: readonly NewJob[]) => JSON.stringify(jobs.map(jobToEntry));

/**
 * `/jobs load <tool>` with a jobs file attached (terminal: `--file PATH`), or with `--from-repo`
 * the tool's source repository's `jobs.yaml` (`--path`, `--ref`).
 */
export const jobsLoadCommand = Object.assign(
  command({
    name: 'jobs load',
    args: loadArgs,
    examples: [
      '/jobs load mytool   (with jobs.yaml attached)',
      '/jobs load mytool --file ./jobs.yaml',
      '/jobs load mytool --from-repo',
      '/jobs load mytool --from-repo --path deploy/jobs.yaml --ref main',
    ],
    permission: 'write',
    guarded: true,
    confirm: (args, target, say = ENGLISH) =>
      (args.job
        ? say.t('jobs-load-confirm-job', args.tool, args.job, target?.label ?? '')
        : say.t('jobs-load-confirm', args.tool, target?.label ?? '')
      ).trim(),
    async resolve({ args, invocation, services, here }) {
      const { jobs: wanted, from } = await jobsToLoad(
        args,
        invocation.files,
        () => repoJobsFile(services, invocation, args),
        here,
      );
      const job = args.job;
      if (job && !wanted.some((j) => j.name === job)) {
        throw UsageError.inWords((say) => ({ message: say.t('jobs-load-job-not-in-file', job) }));
      }
      const client = services.toolhost.forTool(args.tool);
      const current = await client.jobs.list({ includeUnset: false });
      const plan = loadPlan(wanted, current, args.job);
      if (plan.create.length + plan.update.length + plan.remove.length === 0) {
        throw UsageError.inWords((say) => ({ message: say.t('jobs-load-nothing-to-do', args.tool) }));
      }
      // The plan is said in the question (in the question's language), so it is the target's label.
      const { say } = translators(invocation);
      return {
        label: from
          ? say.t('jobs-load-plan-from', from(say), count(plan, say))
          : say.t('jobs-load-plan', count(plan, say)),
        args: { ...args, content: asContent(wanted) },
        version: fingerprint(
          current.map(definitionOf).sort((a, b) => String(a.name).localeCompare(String(b.name))),
        ),
        preview: { text: planTable(plan, say) },
      };
    },
    async run({ args, services, say = ENGLISH }) {
      const { jobs: wanted } = await jobsToLoad(args, undefined);
      const client = services.toolhost.forTool(args.tool);
      const plan = loadPlan(wanted, await client.jobs.list({ includeUnset: false }), args.job);
      const done: string[][] = [];
      const failed: string[] = [];
      const step = async (action: string, name: string, work: () => Promise<string>) => {
        try {
          done.push([action, name, await work()]);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          failed.push(`${name}: ${reason}`);
          done.push([action, name, say.t('jobs-load-result-failed')]);
        }
      };
      for (const name of plan.remove)
        await step(
          'delete',
          name,
          async () => (await client.jobs.delete(name)).join(' ') || say.t('jobs-load-result-deleted'),
        );
      for (const job of [...plan.create, ...plan.update.map((u) => u.job)]) {
        const isNew = plan.create.includes(job);
        if (job.job_type === 'one-off') {
          await step(isNew ? 'create' : 'recreate', job.name, async () => {
            if (!isNew)
              await client.jobs
                .delete(job.name)
                .catch((e) => (e instanceof NotFoundError ? [] : Promise.reject(e)));
            await client.jobs.create(job);
            return say.t('jobs-load-result-recreated');
          });
        } else {
          await step(isNew ? 'create' : 'update', job.name, async () => {
            const result = await client.jobs.update(job);
            return (
              result.messages.join(' ') ||
              (result.changed ? say.t('jobs-load-result-changed') : say.t('jobs-load-result-up-to-date'))
            );
          });
        }
      }
      return withWarnings(
        {
          title: say.t('jobs-load-applied-title', args.tool),
          text: failed.length
            ? say.t('jobs-load-some-failed', failed.join('\n'))
            : say.t(
                'jobs-load-done',
                plan.create.length,
                plan.update.length,
                plan.remove.length,
                plan.unchanged.length,
              ),
          code: { text: table([['ACTION', 'JOB', 'RESULT'], ...done]) },
          status: failed.length ? 'warning' : 'success',
          actions: [
            actionTo(jobsListCommand, { tool: args.tool }, { label: say.t('jobs-load-button-list') }),
          ],
        },
        client,
      );
    },
  }),
  { files: { description: 'file-jobs-load', required: false } satisfies FilesDeclaration },
);

/** `/jobs dump <tool>`: the jobs file of the tool, as a file `/jobs load` reads back. */
export const jobsDumpCommand = toolCommand({
  name: 'jobs dump',
  permission: 'read',
  async run({ args, client, say = ENGLISH }) {
    const jobs = await client.jobs.list({ includeUnset: false });
    if (jobs.length === 0) {
      return { text: say.t('jobs-dump-none', args.tool), status: 'info' };
    }
    return {
      title: say.t('jobs-list-title', args.tool),
      text: say.t('jobs-dump-text', jobs.length),
      status: 'info',
      attachments: [{ filename: `${args.tool}-jobs.yaml`, content: jobsFileText(args.tool, jobs, say) }],
    };
  },
});
