import { actionTo } from '../../src/core/action-ref';
import type { ActionRequest, CardField, CardStatus, DraftCard } from '../../src/core/reply';
import { cardTime, readableTimes } from '../../src/core/times';
import type { Outcome, WatchKind } from '../../src/core/watch';
import { type MessageKey, type Translator, t, translator } from '../../src/i18n/translate';
import {
  buildLogTail,
  type Deployment,
  type DeploymentStatus,
  FINISHED_DEPLOYMENT_STATUSES,
} from '../../src/services/toolhost';
import { buildMessageInWords, parseCompactUtc, sentences, withWarnings } from '../format';
import type { AppServices } from '../services';
import { announcement, stoppedFollowing } from './announce';
import { deploymentStateWord } from './deployment-states';
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

/**
 * The watch's line of detail, by status: stored with the event and read by every subscribed
 * conversation, so it is a record in English; announcements in another language use
 * {@link HEADLINE_KEY} instead.
 */
const HEADLINE: Record<DeploymentStatus, MessageKey> = {
  pending: 'deploy-detail-pending',
  running: 'deploy-detail-running',
  successful: 'deploy-detail-successful',
  failed: 'deploy-detail-failed',
  timed_out: 'deploy-detail-timed-out',
  cancelling: 'deploy-detail-cancelling',
  cancelled: 'deploy-detail-cancelled',
};

/** The card's first line, by status, in the catalog. */
const HEADLINE_KEY = {
  pending: 'deploy-headline-pending',
  running: 'deploy-headline-running',
  successful: 'deploy-headline-successful',
  failed: 'deploy-headline-failed',
  timed_out: 'deploy-headline-timed-out',
  cancelling: 'deploy-headline-cancelling',
  cancelled: 'deploy-headline-cancelled',
} as const satisfies Record<DeploymentStatus, MessageKey>;

const ENGLISH = translator('en');

/** One line per component: how its build and its run are doing. */
function componentFields(deployment: Deployment, say: Translator): CardField[] {
  const names = [...new Set([...Object.keys(deployment.builds), ...Object.keys(deployment.runs)])].sort();
  return names.map((name) => {
    const build = deployment.builds[name];
    const run = deployment.runs[name];
    const buildText = build
      ? build.build_id === 'no-build-needed'
        ? say.t('deploy-component-build-not-needed')
        : build.build_id.startsWith('no-')
          ? say.t('deploy-component-build', deploymentStateWord(say, build.build_status))
          : say.t('deploy-component-build-id', deploymentStateWord(say, build.build_status), build.build_id)
      : say.t('deploy-component-build', '—');
    const runText = say.t('deploy-component-run', run ? deploymentStateWord(say, run.run_status) : '—');
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
function startedField(started: Date | undefined, raw: string, say: Translator): CardField {
  const time = cardTime(started, { relative: true });
  const label = say.t('deploy-field-started');
  return time
    ? { label, value: '', time, inline: true }
    : { label, value: raw || say.t('deploy-field-unknown'), inline: true };
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
  say: Translator = ENGLISH,
): DraftCard {
  const status = deployment.status;
  const started = parseCompactUtc(deployment.creation_time);
  const running = status === 'pending' || status === 'running';
  const actions: ActionRequest[] = [];
  const buildId = firstBuildId(deployment);
  if (buildId)
    actions.push(actionTo(buildLogsSignature, { tool, id: buildId }, { label: say.t('deploy-button-logs') }));
  if (running) {
    actions.push(
      actionTo(
        deploymentCancelSignature,
        { tool, id: deployment.deploy_id },
        { label: say.t('deploy-button-cancel'), style: 'danger' },
      ),
    );
  } else {
    actions.push(
      actionTo(deploySignature, { tool }, { label: say.t('deploy-button-redeploy'), style: 'primary' }),
    );
    if (status === 'failed' || status === 'timed_out')
      actions.push(
        actionTo(
          deployRollbackSignature,
          { tool },
          { label: say.t('deploy-button-rollback'), style: 'danger' },
        ),
      );
  }
  const fields: CardField[] = [
    { label: say.t('deploy-field-status'), value: deploymentStateWord(say, status), inline: true },
    startedField(started, deployment.creation_time, say),
  ];
  const finished = running ? undefined : cardTime(finishedAt(deployment.long_status));
  if (finished)
    fields.push({ label: say.t('deploy-field-finished'), value: '', time: finished, inline: true });
  fields.push(...componentFields(deployment, say));
  if (changes) fields.push(changes);
  if (deployment.description)
    fields.push({ label: say.t('deploy-field-description'), value: deployment.description });
  const forced = [deployment.force_build && 'force-build', deployment.force_run && 'force-run'].filter(
    Boolean,
  );
  if (forced.length)
    fields.push({ label: say.t('deploy-field-options'), value: forced.join(', '), inline: true });
  const lines = [say.t(HEADLINE_KEY[status], tool)];
  if (deployment.long_status && !running && !finished)
    lines.push(readableTimes(buildMessageInWords(deployment.long_status, tool)));
  if (note) lines.push(note);
  const pinned = pinnedLine(tool, deployment, say);
  if (pinned) lines.push(pinned);
  return {
    title: say.t('deploy-card-title', tool),
    text: lines.join('\n'),
    status: STATUS[status],
    fields,
    actions,
    footer: say.t('deploy-card-footer', deployment.deploy_id),
    locale: say.language,
  };
}

/** Follows a deployment until it is successful, failed, timed out or cancelled. */
export const deploymentWatch: WatchKind<AppServices> = {
  name: 'deployment',
  async observe(services, tool, id, say = ENGLISH) {
    const client = services.toolhost.forTool(tool);
    const deployment = await client.components.showDeployment(id);
    const outcome = DEPLOYMENT_OUTCOME[deployment.status];
    const terminal = FINISHED_DEPLOYMENT_STATUSES.has(deployment.status);
    // Once it has ended: the commits since the previous successful deployment.
    const changes = terminal
      ? await whatChangedField(services, client, tool, deployment, say).catch(() => ({
          label: say.t('deploy-field-changes'),
          value: say.t('deploy-changes-unknown'),
        }))
      : undefined;
    const buildId = outcome === 'failure' ? firstBuildId(deployment) : undefined;
    return {
      state: deployment.status,
      terminal,
      outcome,
      claim: { scope: { tool }, everyOutcome: false },
      ...(outcome === 'failure'
        ? {
            failure: {
              ...(buildId ? { build: buildId, lines: await buildLogTail(client, buildId) } : {}),
            },
          }
        : {}),
      detail: `${t('en', HEADLINE[deployment.status], deployment.deploy_id)}${deployment.long_status && outcome ? ` ${readableTimes(buildMessageInWords(deployment.long_status, tool))}` : ''}`,
      card: withWarnings(deploymentCard(tool, deployment, undefined, changes, say), client),
    };
  },
  gaveUp(tool, id, lastCard, reason) {
    return stoppedFollowing(
      lastCard,
      { title: ENGLISH.t('deploy-card-title', tool), footer: ENGLISH.t('deploy-card-footer', id) },
      ENGLISH.t('deploy-card-footer', id),
      reason,
      `/deployment show ${tool} ${id}`,
    );
  },
  announce(event, say = ENGLISH) {
    const tool = event.tool;
    const build = event.failure?.build;
    const remedies = [
      actionTo(deploySignature, { tool }, { label: say.t('deploy-button-redeploy'), style: 'primary' }),
      ...(build
        ? [actionTo(buildLogsSignature, { tool, id: build }, { label: say.t('announce-button-logs') })]
        : []),
      actionTo(
        deployRollbackSignature,
        { tool },
        { label: say.t('deploy-button-rollback'), style: 'danger' },
      ),
    ];
    const headline = HEADLINE_KEY[event.to as DeploymentStatus];
    return announcement(
      event,
      'deployment',
      actionTo(deploymentShowSignature, { tool, id: event.id }, { label: say.t('announce-button-show') }),
      remedies,
      {
        say,
        noun: say.t('announce-noun-deployment'),
        state: (state) => deploymentStateWord(say, state),
        footer: say.t('deploy-card-footer', event.id),
        ...(say.language !== 'en' && headline ? { detail: say.t(headline, tool) } : {}),
      },
    );
  },
};
