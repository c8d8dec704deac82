/**
 * "What changed" on a deployment card: the commits between the previous successful deployment and
 * this one, per component, from the source host's compare API for the repositories it hosts (first
 * lines and authors, at most 10, then "+N more"). Where the source host cannot tell, the card says so.
 */
import { UpstreamError } from '../../src/core/errors';
import type { CardField } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import type { ComparedCommit } from '../../src/services/sourcehost';
import type { Deployment, ToolhostClient } from '../../src/services/toolhost';
import type { ToolhostServices } from './context';
import {
  type ComponentSource,
  deploymentCommits,
  deploymentsNewestFirst,
  FULL_SHA,
  previousSuccessful,
  shortSha,
} from './rollback-commits';

/** Commits listed per repository before "+N more". */
export const MAX_LISTED_COMMITS = 10;

type Services = Pick<ToolhostServices, 'locks' | 'accounts'>;

/** `owner/name` of a repository URL on the source host, or undefined when it is hosted elsewhere. */
export function hostedRepository(webUrl: string, repository: string): [string, string] | undefined {
  const prefix = `${webUrl.replace(/\/$/, '')}/`;
  if (!repository.startsWith(prefix)) return undefined;
  const [owner, name, ...rest] = repository
    .slice(prefix.length)
    .replace(/\.git$/, '')
    .split('/');
  return owner && name && rest.every((part) => part === '') ? [owner, name] : undefined;
}

const ENGLISH = translator('en');

function commitLine(commit: ComparedCommit, say: Translator): string {
  const first = commit.commit.message.split('\n')[0]?.trim() || say.t('rollback-commit-no-message');
  const name = commit.commit.author?.name ?? commit.author?.login ?? say.t('rollback-commit-unknown-author');
  const login = commit.author?.login ? ` (@${commit.author.login})` : '';
  return `• ${first} — ${name}${login}`;
}

/** The commits between `from` and `to` of one component's repository, as lines. */
async function componentChanges(
  services: Services,
  from: ComponentSource,
  to: ComponentSource,
  say: Translator,
): Promise<string> {
  const repository = to.repository as string;
  const range = `${shortSha(from.commit, say)} → ${shortSha(to.commit, say)}`;
  if (!from.commit || !to.commit) return say.t('rollback-changes-unknown-commits', range);
  if (from.commit === to.commit) return say.t('rollback-changes-none', shortSha(to.commit, say));
  const sourcehost = services.accounts.sourcehost;
  const hosted = hostedRepository(sourcehost.webUrl, repository);
  if (!hosted) return say.t('rollback-changes-not-hosted', repository, range);
  try {
    const comparison = await sourcehost
      .anonymous()
      .commits.compare(hosted[0], hosted[1], from.commit, to.commit);
    if (comparison.status === 'behind' || comparison.status === 'identical')
      return say.t('rollback-changes-behind', comparison.behind_by, range);
    const listed = comparison.commits
      .slice(-MAX_LISTED_COMMITS)
      .reverse()
      .map((commit) => commitLine(commit, say));
    const more = comparison.total_commits - listed.length;
    if (more > 0) listed.push(say.t('rollback-changes-more', more));
    return [`${range}`, ...listed].join('\n');
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404)
      return say.t('rollback-changes-unknown-to-host', range);
    return say.t('rollback-changes-host-unreachable', range);
  }
}

/**
 * The "What changed" field of a finished deployment's card, or undefined when there is nothing to
 * compare with (no earlier successful deployment is listed).
 */
export async function whatChangedField(
  services: Services,
  client: ToolhostClient,
  tool: string,
  deployment: Deployment,
  say: Translator = ENGLISH,
): Promise<CardField | undefined> {
  const all = await deploymentsNewestFirst(client);
  const previous = previousSuccessful(all, deployment);
  if (!previous) return undefined;
  const [before, after] = await Promise.all([
    deploymentCommits(services, client, tool, previous),
    deploymentCommits(services, client, tool, deployment),
  ]);
  const parts: string[] = [];
  for (const [name, to] of Object.entries(after).sort(([a], [b]) => a.localeCompare(b))) {
    if (to.reuseFrom !== undefined || !to.repository) continue;
    const from = before[name];
    const text = !from?.repository
      ? say.t('rollback-changes-new', previous.deploy_id)
      : from.repository !== to.repository
        ? say.t('rollback-changes-moved', to.repository, from.repository)
        : await componentChanges(services, from, to, say);
    parts.push(`${name}: ${text}`);
  }
  if (parts.length === 0) return undefined;
  return { label: say.t('rollback-changes-label', previous.deploy_id), value: parts.join('\n') };
}

/** A line saying which components are pinned to a commit and how to return to the branch. */
export function pinnedLine(
  tool: string,
  deployment: Deployment,
  say: Translator = ENGLISH,
): string | undefined {
  const pinned = Object.entries(deployment.tool_config?.components ?? {})
    .map(([name, component]) => [name, (component.build as { ref?: string }).ref] as const)
    .filter(([, ref]) => ref !== undefined && FULL_SHA.test(ref));
  if (pinned.length === 0) return undefined;
  const list = pinned.map(([name, ref]) => `${name} @ ${shortSha(ref, say)}`).join(', ');
  return say.t('rollback-pinned-line', list, tool);
}
