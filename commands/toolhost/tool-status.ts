import { actionTo } from '../../src/core/action-ref';
import { DeckhandError, NotFoundError } from '../../src/core/errors';
import type { CardField, CardStatus } from '../../src/core/reply';
import { cardTime } from '../../src/core/times';
import { type ApiHealth, healthProblems } from '../../src/services/toolhost';
import { parseCompactUtc, quotaFields } from '../format';
import { guardState } from '../guard-fields';
import { BUILD_WORD } from './build-card';
import { toolCommand } from './context';
import { deployCommand } from './deploy';
import { jobState } from './job-card';
import { jobsListCommand } from './jobs';
import { salIsOn } from './sal/service';
import { buildHealth, deploymentHealth, jobHealth, STATUS_RANK } from './tool-health';
import { webserviceRestartCommand } from './webservice';
import { isWebservice } from './webservice-card';

/** The value of a settled call, or a short note saying why there is none. */
function settled<T>(result: PromiseSettledResult<T>, none: string): { value?: T; note?: string } {
  if (result.status === 'fulfilled') return { value: result.value };
  const error = result.reason;
  if (error instanceof NotFoundError) return { note: none };
  if (error instanceof DeckhandError) return { note: `unavailable: ${error.message}` };
  return { note: 'unavailable' };
}

/** The platform's health as a card field, and its problems in words (none when every API is OK). */
function platformField(report: ApiHealth[] | undefined): { field: CardField; problems: string[] } {
  if (!report) return { field: { label: 'Platform', value: 'health unknown' }, problems: [] };
  if (report.length === 0)
    return { field: { label: 'Platform', value: 'no server configured' }, problems: [] };
  const problems = healthProblems(report);
  const value = problems.length ? problems.join('\n') : `healthy (${report.map((h) => h.api).join(', ')})`;
  return { field: { label: 'Platform', value }, problems };
}

/** `/tool status <tool>`: the maintainer's dashboard on one card. */
export const toolStatusCommand = toolCommand({
  name: 'tool status',
  permission: 'read',
  async run({ args, services, client }) {
    const [guards, health, build, deployment, jobs, jobsQuota, buildQuota, envvarsQuota] =
      await Promise.allSettled([
        guardState(services.accounts.guards, args.tool),
        services.toolhost.platformHealth(),
        client.builds.latest(),
        client.components.latestDeployment(),
        client.jobs.list(),
        client.jobs.quotas(),
        client.builds.quotas(),
        client.envvars.quotas(),
      ]);
    const fields: CardField[] = [];
    let worst: CardStatus = 'success';
    const note = (status: CardStatus) => {
      if (STATUS_RANK[status] > STATUS_RANK[worst]) worst = status;
    };

    const platform = platformField(health.status === 'fulfilled' ? health.value : undefined);
    if (platform.problems.length) note('warning');
    fields.push(platform.field);
    // The lock (holder, since, until, reason) and the freeze windows: whether deploys run now.
    const guard = guards.status === 'fulfilled' ? guards.value : undefined;
    if (guard?.blocked) note('warning');
    if (guard && (guard.blocked || guard.freezes.length)) fields.push(...guard.fields);

    const b = settled(build, 'no builds yet');
    if (b.value) {
      const started = cardTime(b.value.start_time ? new Date(b.value.start_time) : undefined, {
        relative: true,
      });
      fields.push({
        label: 'Latest build',
        value: `${BUILD_WORD[b.value.status]} · ${b.value.build_id}`,
        time: started,
      });
      note(buildHealth(b.value));
    } else fields.push({ label: 'Latest build', value: b.note ?? '' });

    const d = settled(deployment, 'no deployments yet');
    if (d.value) {
      const started = cardTime(parseCompactUtc(d.value.creation_time), { relative: true });
      fields.push({
        label: 'Latest deployment',
        value: `${d.value.status} · ${d.value.deploy_id}`,
        time: started,
      });
      note(deploymentHealth(d.value));
    } else fields.push({ label: 'Latest deployment', value: d.note ?? '' });

    const j = settled(jobs, 'no jobs');
    if (j.value) {
      if (j.value.length === 0) fields.push({ label: 'Jobs', value: 'none' });
      for (const job of j.value) {
        fields.push({ label: `Job ${job.name}`, value: `${job.job_type} · ${jobState(job)}`, inline: true });
        note(jobHealth(job));
      }
    } else fields.push({ label: 'Jobs', value: j.note ?? '' });
    const web = j.value?.find(isWebservice);
    if (j.value) {
      const url = services.toolhost.publicUrl(args.tool);
      fields.push({
        label: 'Web service',
        value: web ? `${jobState(web)} · ${url} · job ${web.name}` : 'none (no published job)',
      });
    }

    for (const quota of [settled(jobsQuota, ''), settled(buildQuota, '')]) {
      if (quota.value) fields.push(...quotaFields(quota.value));
    }
    const e = settled(envvarsQuota, '');
    if (e.value)
      fields.push({
        label: 'Envvars',
        value: `${e.value.used ?? '?'} of ${e.value.quota ?? '?'} used`,
        inline: true,
      });
    const sal = await salIsOn(services.adminLog, args.tool).catch(() => undefined);
    if (sal !== undefined)
      fields.push({
        label: 'Admin log',
        value: sal ? `on (${services.adminLog.channel})` : 'off',
        inline: true,
      });

    const headline: Record<CardStatus, string> = {
      success: 'All good.',
      info: 'All good.',
      progress: 'A deployment is in progress.',
      warning: 'Mostly fine; see the warnings below.',
      danger: 'Something is failing; see below.',
    };
    const held = guard?.blocked
      ? ` Deploys and destructive commands of ${args.tool} are refused now (see /tool freezes ${args.tool}).`
      : '';
    const text = platform.problems.length
      ? `The platform itself reports problems (${platform.problems.join('; ')}): failures below may be the platform's, not ${args.tool}'s.${held}`
      : `${headline[worst]}${held}`;
    return {
      title: `Status of ${args.tool}`,
      text,
      status: worst,
      fields,
      actions: [
        actionTo(deployCommand, { tool: args.tool }, { label: 'Deploy', style: 'primary' }),
        actionTo(jobsListCommand, { tool: args.tool }, { label: 'Jobs' }),
        ...(web
          ? [actionTo(webserviceRestartCommand, { tool: args.tool }, { label: 'Restart web service' })]
          : []),
      ],
    };
  },
});
