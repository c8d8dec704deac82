import { actionTo } from '../../src/core/action-ref';
import type { ActionRequest, CardField, CardStatus, DraftCard } from '../../src/core/reply';
import { cardTime, readableTimes } from '../../src/core/times';
import type { Outcome, WatchKind } from '../../src/core/watch';
import {
  buildLogTail,
  type Deployment,
  type DeploymentStatus,
  FINISHED_DEPLOYMENT_STATUSES,
} from '../../src/services/toolhost';
import { buildMessageInWords, parseCompactUtc, sentences, withWarnings } from '../format';
import type { AppServices } from '../services';
import { announcement, stoppedFollowing } from './announce';
import { pinnedLine, whatChangedField } from './rollback-changes';
import { deployRollbackSignature } from './rollback-signature';
import {
  buildLogsSignature,
  deploymentCancelSignature,
  deploymentShowSignature,
  deploySignature,
} from './signatures';

const STATUS: Record<DeploymentStatus, CardStatus> = {
  pending: 'progress',
  running: 'progress',
  successful: 'success',
  failed: 'danger',
  timed_out: 'danger',
  cancelling: 'warning',
  cancelled: 'warning',
};

const DEPLOYMENT_OUTCOME: Partial<Record<DeploymentStatus, Outcome>> = {
  successful: 'success',
  failed: 'failure',
  timed_out: 'failure',
  cancelled: 'cancelled',
};

const HEADLINE: Record<DeploymentStatus, string> = {
  pending: 'is waiting to start',
  running: 'is running',
  successful: 'finished successfully',
  failed: 'failed',
  timed_out: 'timed out (stuck for over an hour)',
  cancelling: 'is being cancelled',
  cancelled: 'was cancelled',
};

/** One line per component: how its build and its run are doing. */
function componentFields(deployment: Deployment): CardField[] {
  const names = [...new Set([...Object.keys(deployment.builds), ...Object.keys(deployment.runs)])].sort();
  return names.map((name) => {
    const build = deployment.builds[name];
    const run = deployment.runs[name];
    const buildText = build
      ? build.build_id === 'no-build-needed'
        ? 'build: not needed (image up to date)'
        : `build: ${build.build_status}${build.build_id.startsWith('no-') ? '' : ` (${build.build_id})`}`
      : 'build: —';
    const runText = run ? `run: ${run.run_status}` : 'run: —';
    const detail = sentences([build?.build_long_status, run?.run_long_status]);
    return { label: name, value: `${buildText} · ${runText}${detail ? `\n${detail}` : ''}` };
  });
}

/** The first real build id of a deployment, for its "View logs" button. */
function firstBuildId(deployment: Deployment): string | undefined {
  return Object.values(deployment.builds)
    .map((b) => b.build_id)
    .find((id) => !id.startsWith('no-'));
}

/**
 * When the deployment started, as a time value (how long ago included); the spec types
 * `creation_time` as any string (components-openapi.yaml `Deployment`), so one that is not
 * `YYYYmmdd-HHMMSS` is shown as sent.
 */
function startedField(started: Date | undefined, raw: string): CardField {
  const time = cardTime(started, { relative: true });
  return time
    ? { label: 'Started', value: '', time, inline: true }
    : { label: 'Started', value: raw || 'unknown', inline: true };
}

/** The platform's own `Finished at <ISO 8601>` (components-api `long_status`) as a time, or undefined. */
function finishedAt(longStatus: string | undefined): Date | undefined {
  const match = /^Finished at (\S+)$/.exec(longStatus?.trim() ?? '');
  if (!match) return undefined;
  const at = new Date(match[1] as string);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * The status card of a deployment, with View logs / Cancel / Redeploy (and, once it failed, Roll
 * back) buttons; `changes` is its "What changed" field (rollback-changes.ts).
 */
export function deploymentCard(
  tool: string,
  deployment: Deployment,
  note?: string,
  changes?: CardField,
): DraftCard {
  const status = deployment.status;
  const started = parseCompactUtc(deployment.creation_time);
  const running = status === 'pending' || status === 'running';
  const actions: ActionRequest[] = [];
  const buildId = firstBuildId(deployment);
  if (buildId) actions.push(actionTo(buildLogsSignature, { tool, id: buildId }, { label: 'View logs' }));
  if (running) {
    actions.push(
      actionTo(
        deploymentCancelSignature,
        { tool, id: deployment.deploy_id },
        { label: 'Cancel', style: 'danger' },
      ),
    );
  } else {
    actions.push(actionTo(deploySignature, { tool }, { label: 'Redeploy', style: 'primary' }));
    if (status === 'failed' || status === 'timed_out')
      actions.push(actionTo(deployRollbackSignature, { tool }, { label: 'Roll back', style: 'danger' }));
  }
  const fields: CardField[] = [
    { label: 'Status', value: status, inline: true },
    startedField(started, deployment.creation_time),
  ];
  const finished = running ? undefined : cardTime(finishedAt(deployment.long_status));
  if (finished) fields.push({ label: 'Finished', value: '', time: finished, inline: true });
  fields.push(...componentFields(deployment));
  if (changes) fields.push(changes);
  if (deployment.description) fields.push({ label: 'Description', value: deployment.description });
  const forced = [deployment.force_build && 'force-build', deployment.force_run && 'force-run'].filter(
    Boolean,
  );
  if (forced.length) fields.push({ label: 'Options', value: forced.join(', '), inline: true });
  const lines = [`Deployment of ${tool} ${HEADLINE[status]}.`];
  if (deployment.long_status && !running && !finished)
    lines.push(readableTimes(buildMessageInWords(deployment.long_status, tool)));
  if (note) lines.push(note);
  const pinned = pinnedLine(tool, deployment);
  if (pinned) lines.push(pinned);
  return {
    title: `Deploy ${tool}`,
    text: lines.join('\n'),
    status: STATUS[status],
    fields,
    actions,
    footer: `deployment ${deployment.deploy_id}`,
  };
}

/** Follows a deployment until it is successful, failed, timed out or cancelled. */
export const deploymentWatch: WatchKind<AppServices> = {
  name: 'deployment',
  async observe(services, tool, id) {
    const client = services.toolhost.forTool(tool);
    const deployment = await client.components.showDeployment(id);
    const outcome = DEPLOYMENT_OUTCOME[deployment.status];
    const terminal = FINISHED_DEPLOYMENT_STATUSES.has(deployment.status);
    // Once it has ended: the commits since the previous successful deployment.
    const changes = terminal
      ? await whatChangedField(services, client, tool, deployment).catch(() => ({
          label: 'What changed',
          value: 'Deckhand could not work out what changed.',
        }))
      : undefined;
    const buildId = outcome === 'failure' ? firstBuildId(deployment) : undefined;
    return {
      state: deployment.status,
      terminal,
      outcome,
      ...(outcome === 'failure'
        ? {
            failure: {
              ...(buildId ? { build: buildId, lines: await buildLogTail(client, buildId) } : {}),
            },
          }
        : {}),
      detail: `Deployment ${deployment.deploy_id} ${HEADLINE[deployment.status]}.${deployment.long_status && outcome ? ` ${readableTimes(buildMessageInWords(deployment.long_status, tool))}` : ''}`,
      card: withWarnings(deploymentCard(tool, deployment, undefined, changes), client),
    };
  },
  gaveUp(tool, id, lastCard, reason) {
    return stoppedFollowing(
      lastCard,
      { title: `Deploy ${tool}`, footer: `deployment ${id}` },
      `deployment ${id}`,
      reason,
      `/deployment show ${tool} ${id}`,
    );
  },
  announce(event) {
    const tool = event.tool;
    const build = event.failure?.build;
    const remedies = [
      actionTo(deploySignature, { tool }, { label: 'Redeploy', style: 'primary' }),
      ...(build ? [actionTo(buildLogsSignature, { tool, id: build }, { label: 'Logs' })] : []),
      actionTo(deployRollbackSignature, { tool }, { label: 'Roll back', style: 'danger' }),
    ];
    return announcement(
      event,
      'deployment',
      actionTo(deploymentShowSignature, { tool, id: event.id }, { label: 'Show' }),
      remedies,
    );
  },
};
