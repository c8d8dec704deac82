import { actionTo } from '../../src/core/action-ref';
import { DeckhandError, NotFoundError } from '../../src/core/errors';
import type { CardField, CardStatus } from '../../src/core/reply';
import { cardTime } from '../../src/core/times';
import { type MessageKey, type Translator, translator } from '../../src/i18n/translate';
import { type ApiHealth, healthProblems } from '../../src/services/toolhost';
import { parseCompactUtc, quotaFields } from '../format';
import { guardState } from '../guard-fields';
import { BUILD_WORD } from './build-card';
import { toolCommand } from './context';
import { deployCommand } from './deploy';
import { deploymentStateWord } from './deployment-states';
import { jobState } from './job-card';
import { jobsListCommand } from './jobs';
import { salIsOn } from './sal/service';
import { buildHealth, deploymentHealth, jobHealth, STATUS_RANK } from './tool-health';
import { webserviceRestartCommand } from './webservice';
import { isWebservice } from './webservice-card';

/** The value of a settled call, or a short note saying why there is none. */
function settled<T>(
  result: PromiseSettledResult<T>,
  none: string,
  say: Translator,
): { value?: T; note?: string } {
  if (result.status === 'fulfilled') return { value: result.value };
  const error = result.reason;
  if (error instanceof NotFoundError) return { note: none };
  if (error instanceof DeckhandError)
    return { note: say.t('tool-status-unavailable-because', error.message) };
  return { note: say.t('tool-unavailable') };
}

/** The platform's health as a card field, and its problems in words (none when every API is OK). */
function platformField(
  report: ApiHealth[] | undefined,
  say: Translator,
): { field: CardField; problems: string[] } {
  const label = say.t('tool-status-platform');
  if (!report) return { field: { label, value: say.t('tool-status-platform-unknown') }, problems: [] };
  if (report.length === 0)
    return { field: { label, value: say.t('tool-status-platform-none') }, problems: [] };
  // The platform's problems are in its own words (English).
  const problems = healthProblems(report);
  const value = problems.length
    ? problems.join('\n')
    : say.t('tool-status-platform-healthy', report.map((h) => h.api).join(', '));
  return { field: { label, value }, problems };
}

/** The card's first line, by how the tool is doing. */
const HEADLINE = {
  success: 'tool-status-all-good',
  info: 'tool-status-all-good',
  progress: 'tool-status-deploying',
  warning: 'tool-status-warnings',
  danger: 'tool-status-failing',
} as const satisfies Record<CardStatus, MessageKey>;

/** `/tool status <tool>`: the maintainer's dashboard on one card. */
export const toolStatusCommand = toolCommand({
  name: 'tool status',
  permission: 'read',
  async run({ args, services, client, say = translator(undefined) }) {
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

    const platform = platformField(health.status === 'fulfilled' ? health.value : undefined, say);
    if (platform.problems.length) note('warning');
    fields.push(platform.field);
    // The lock (holder, since, until, reason) and the freeze windows: whether deploys run now.
    const guard = guards.status === 'fulfilled' ? guards.value : undefined;
    if (guard?.blocked) note('warning');
    if (guard && (guard.blocked || guard.freezes.length)) fields.push(...guard.fields);

    const b = settled(build, say.t('tool-status-no-builds'), say);
    if (b.value) {
      const started = cardTime(b.value.start_time ? new Date(b.value.start_time) : undefined, {
        relative: true,
      });
      fields.push({
        label: say.t('tool-status-latest-build'),
        value: `${BUILD_WORD[b.value.status]} · ${b.value.build_id}`,
        time: started,
      });
      note(buildHealth(b.value));
    } else fields.push({ label: say.t('tool-status-latest-build'), value: b.note ?? '' });

    const d = settled(deployment, say.t('tool-status-no-deployments'), say);
    if (d.value) {
      const started = cardTime(parseCompactUtc(d.value.creation_time), { relative: true });
      fields.push({
        label: say.t('tool-status-latest-deployment'),
        value: `${deploymentStateWord(say, d.value.status)} · ${d.value.deploy_id}`,
        time: started,
      });
      note(deploymentHealth(d.value));
    } else fields.push({ label: say.t('tool-status-latest-deployment'), value: d.note ?? '' });

    const j = settled(jobs, say.t('tool-status-no-jobs'), say);
    if (j.value) {
      if (j.value.length === 0)
        fields.push({ label: say.t('tool-status-jobs'), value: say.t('tool-status-none') });
      for (const job of j.value) {
        fields.push({
          label: say.t('tool-status-job', job.name),
          value: `${job.job_type} · ${jobState(job)}`,
          inline: true,
        });
        note(jobHealth(job));
      }
    } else fields.push({ label: say.t('tool-status-jobs'), value: j.note ?? '' });
    const web = j.value?.find(isWebservice);
    if (j.value) {
      const url = services.toolhost.publicUrl(args.tool);
      fields.push({
        label: say.t('tool-status-webservice'),
        value: web
          ? say.t('tool-status-webservice-job', jobState(web), url, web.name)
          : say.t('tool-status-webservice-none'),
      });
    }

    for (const quota of [settled(jobsQuota, '', say), settled(buildQuota, '', say)]) {
      if (quota.value) fields.push(...quotaFields(quota.value));
    }
    const e = settled(envvarsQuota, '', say);
    if (e.value)
      fields.push({
        label: say.t('tool-status-envvars'),
        value: say.t('tool-status-envvars-used', String(e.value.used ?? '?'), String(e.value.quota ?? '?')),
        inline: true,
      });
    const sal = await salIsOn(services.adminLog, args.tool).catch(() => undefined);
    if (sal !== undefined)
      fields.push({
        label: say.t('tool-status-admin-log'),
        value: sal
          ? say.t('tool-status-admin-log-on', services.adminLog.channel)
          : say.t('tool-status-admin-log-off'),
        inline: true,
      });

    const held = guard?.blocked ? ` ${say.t('tool-status-held', args.tool)}` : '';
    const text = platform.problems.length
      ? `${say.t('tool-status-platform-problems', platform.problems.join('; '), args.tool)}${held}`
      : `${say.t(HEADLINE[worst])}${held}`;
    return {
      title: say.t('tool-status-title', args.tool),
      text,
      status: worst,
      fields,
      locale: say.language,
      actions: [
        actionTo(
          deployCommand,
          { tool: args.tool },
          { label: say.t('tool-status-button-deploy'), style: 'primary' },
        ),
        actionTo(jobsListCommand, { tool: args.tool }, { label: say.t('tool-status-jobs') }),
        ...(web
          ? [
              actionTo(
                webserviceRestartCommand,
                { tool: args.tool },
                { label: say.t('tool-status-button-restart-webservice') },
              ),
            ]
          : []),
      ],
    };
  },
});
