/**
 * How healthy a tool is, from its latest build, its latest deployment and its jobs: the rules
 * `/tool status` colours its card by, shared with the status chips of `/me` (which read only these
 * three, one request each).
 */
import { DeckhandError, NotFoundError } from '../../src/core/errors';
import type { CardStatus } from '../../src/core/reply';
import { type MessageKey, type Translator, translator } from '../../src/i18n/translate';
import type { Build, Deployment, Job, ToolhostClient } from '../../src/services/toolhost';
import { deploymentStateWord } from './deployment-states';
import { jobStatus } from './job-card';

/** Worse statuses rank higher. */
export const STATUS_RANK: Record<CardStatus, number> = {
  info: 0,
  success: 1,
  progress: 2,
  warning: 3,
  danger: 4,
};

/** The worse of two statuses. */
export function worse(a: CardStatus, b: CardStatus): CardStatus {
  return STATUS_RANK[b] > STATUS_RANK[a] ? b : a;
}

/** A failed or timed-out latest build is a warning (what runs was built earlier). */
export function buildHealth(build: Build): CardStatus {
  return build.status === 'BUILD_FAILURE' || build.status === 'BUILD_TIMEOUT' ? 'warning' : 'success';
}

/** A failed latest deployment is a failure; one still running is in progress. */
export function deploymentHealth(deployment: Deployment): CardStatus {
  if (deployment.status === 'failed' || deployment.status === 'timed_out') return 'danger';
  if (deployment.status === 'pending' || deployment.status === 'running') return 'progress';
  return 'success';
}

/** A failing continuous job is a failure; a failed one-off run is a warning. */
export function jobHealth(job: Job): CardStatus {
  const status = jobStatus(job);
  if (status === 'danger') return job.job_type === 'one-off' ? 'warning' : 'danger';
  return 'success';
}

/** A tool's status in a word or two, and what decided it. */
export interface ToolChip {
  status: CardStatus;
  /** `ok`, `deploying`, `warning`, `failing` or `unknown`. */
  word: string;
  /** What made it so (`deployment failed`, `job web failing`), or why it is unknown. */
  detail?: string;
}

const WORD = {
  info: 'tool-chip-ok',
  success: 'tool-chip-ok',
  progress: 'tool-chip-deploying',
  warning: 'tool-chip-warning',
  danger: 'tool-chip-failing',
} as const satisfies Record<CardStatus, MessageKey>;

/** Why a read gave nothing: not there (nothing to say), or unavailable (with the service's words). */
function unavailable(result: PromiseSettledResult<unknown>, say: Translator): string | undefined {
  if (result.status === 'fulfilled' || result.reason instanceof NotFoundError) return undefined;
  return result.reason instanceof DeckhandError ? result.reason.message : say.t('tool-unavailable');
}

/**
 * The tool's chip: its latest build, latest deployment and jobs, read at once (three requests), by
 * the rules of `/tool status`. When none of the three can be read the chip says so.
 */
export async function toolChip(
  client: () => ToolhostClient,
  say: Translator = translator('en'),
): Promise<ToolChip> {
  let tool: ToolhostClient;
  try {
    tool = client();
  } catch (error) {
    return {
      status: 'info',
      word: say.t('deploy-state-unknown'),
      detail: error instanceof DeckhandError ? error.message : '',
    };
  }
  const [build, deployment, jobs] = await Promise.allSettled([
    tool.builds.latest(),
    tool.components.latestDeployment(),
    tool.jobs.list(),
  ]);
  const problems = [build, deployment, jobs].map((result) => unavailable(result, say));
  if (problems.every(Boolean))
    return { status: 'info', word: say.t('deploy-state-unknown'), detail: problems[0] ?? '' };
  const found: { status: CardStatus; detail: string }[] = [];
  if (build.status === 'fulfilled')
    found.push({ status: buildHealth(build.value), detail: say.t('tool-chip-build-failed') });
  if (deployment.status === 'fulfilled') {
    const d = deployment.value;
    found.push({
      status: deploymentHealth(d),
      detail: say.t('tool-chip-deployment', deploymentStateWord(say, d.status)),
    });
  }
  for (const job of jobs.status === 'fulfilled' ? jobs.value : []) {
    found.push({ status: jobHealth(job), detail: say.t('tool-chip-job-failing', job.name) });
  }
  let worst: { status: CardStatus; detail?: string } = { status: 'success' };
  for (const item of found) if (STATUS_RANK[item.status] > STATUS_RANK[worst.status]) worst = item;
  return {
    status: worst.status,
    word: say.t(WORD[worst.status]),
    ...(worst.status === 'success' ? {} : { detail: worst.detail }),
  };
}
