/**
 * Who may do what. Admins (config) may do everything. Per tool, maintainers are those configured
 * (`TOOL_MAINTAINERS`) or those whose linked source-host account has push access to the tool's source
 * repository; a user who linked a deploy token for a tool may deploy that tool (and only that).
 * Read-only commands are open to everyone in the conversation unless `READ_ACCESS=maintainers`.
 * Every refusal says which role or link is missing and how to get it.
 */

import type { ChatUser, CommandDefinition, PermissionLevel } from './command';
import { PermissionDenied } from './errors';
import type { Policy } from './policy';

/** What a linked source-host account says about a tool. */
export type PushAccess =
  | { kind: 'push'; login: string; repo: string }
  | { kind: 'no-push'; login: string; repo: string }
  | { kind: 'not-linked' }
  | { kind: 'unknown-repo' }
  | { kind: 'unavailable'; reason: string };

/**
 * Where a tool's source is: the repository of its components configuration (else of its latest
 * build), with the ref it builds from; `repo` when that URL names a repository of the source host.
 */
export interface ToolSource {
  /** The repository URL, as configured for the tool. */
  url: string;
  /** The branch, tag or commit it builds from, when set. */
  ref?: string;
  /** `owner`/`name` on the source host, when the URL is on one of its hosts. */
  repo?: { owner: string; name: string };
}

/** How the policy learns about linked accounts (the vault and the source host). */
export interface LinkedAccess {
  /** Whether the user linked a deploy token for the tool. */
  hasDeployToken(user: ChatUser, tool: string): Promise<boolean>;
  /** Whether the user's linked source-host account may push to the tool's repository (cached). */
  pushAccess(user: ChatUser, tool: string): Promise<PushAccess>;
}

/** Options of {@link AccessPolicy}. */
export interface AccessPolicyOptions {
  /** `platform:userId` entries. */
  admins: readonly string[];
  /** `tool=platform:userId` entries. */
  maintainers: readonly string[];
  /** `everyone` (default): read commands are open; `maintainers`: they need a role on the tool. */
  readAccess?: 'everyone' | 'maintainers';
  linked?: LinkedAccess;
  /**
   * The commands, for the access flags they declare (`selfService`, `deploys`); a command not
   * among them has neither.
   */
  commands?: Iterable<CommandAccess>;
  /** The tools Deckhand knows of: where push access through a linked account is looked for. */
  knownTools?: () => Iterable<string>;
}

/** What the policy reads of a command: its name and its access flags. */
export type CommandAccess = Pick<CommandDefinition, 'name' | 'selfService' | 'deploys'>;

/** The permission policy with linked accounts. */
export class AccessPolicy implements Policy {
  private readonly admins: Set<string>;
  private readonly maintainers = new Map<string, Set<string>>();
  private readonly commands = new Map<string, CommandAccess>();

  constructor(private readonly options: AccessPolicyOptions) {
    this.admins = new Set(options.admins);
    for (const command of options.commands ?? []) this.commands.set(command.name, command);
    for (const entry of options.maintainers) {
      const [tool, who] = entry.split('=') as [string, string];
      const set = this.maintainers.get(tool) ?? new Set<string>();
      set.add(who);
      this.maintainers.set(tool, set);
    }
  }

  /** True for a configured admin. */
  isAdmin(user: ChatUser): boolean {
    return this.admins.has(idOf(user));
  }

  /** Tools the user maintains by configuration. */
  configuredTools(user: ChatUser): string[] {
    const id = idOf(user);
    return [...this.maintainers].filter(([, who]) => who.has(id)).map(([tool]) => tool);
  }

  /**
   * The tools the user maintains: those configured, and the known tools whose source repository
   * their linked source-host account may push to (each answer cached, see {@link LinkedAccess}).
   * Without a linked account no repository is asked about.
   */
  async maintainedTools(user: ChatUser): Promise<string[]> {
    const tools = new Set(this.configuredTools(user));
    const linked = this.options.linked;
    const candidates = [...(this.options.knownTools?.() ?? [])].filter((tool) => !tools.has(tool));
    if (linked && candidates.length > 0) {
      const first = await linked.pushAccess(user, candidates[0] as string);
      if (first.kind !== 'not-linked') {
        const rest = await Promise.all(candidates.slice(1).map((tool) => linked.pushAccess(user, tool)));
        [first, ...rest].forEach((access, i) => {
          if (access.kind === 'push') tools.add(candidates[i] as string);
        });
      }
    }
    return [...tools].sort();
  }

  async check(
    user: ChatUser,
    level: PermissionLevel,
    tool: string | undefined,
    command?: string,
  ): Promise<void> {
    const id = idOf(user);
    if (this.admins.has(id)) return;
    const flags = command === undefined ? undefined : this.commands.get(command);
    if (level === 'read' && (this.options.readAccess !== 'maintainers' || !tool || flags?.selfService)) {
      return;
    }
    if (level === 'admin' || !tool) {
      throw PermissionDenied.inWords((say) => ({
        message: say.t('access-admins-only'),
        hint: say.t('access-admins-only-hint', id),
      }));
    }
    if (this.maintainers.get(tool)?.has(id)) return;
    const tokenCounts = level === 'read' || flags?.deploys === true;
    const linked = this.options.linked;
    if (tokenCounts && linked && (await linked.hasDeployToken(user, tool))) return;
    const push = linked ? await linked.pushAccess(user, tool) : { kind: 'unavailable' as const, reason: '' };
    if (push.kind === 'push') return;
    throw this.refusal(id, tool, level, tokenCounts, push);
  }

  /** The refusal: what is missing, and each way to get it. */
  private refusal(
    id: string,
    tool: string,
    level: PermissionLevel,
    tokenCounts: boolean,
    push: PushAccess,
  ): PermissionDenied {
    return PermissionDenied.inWords((say) => {
      const ways = [say.t('access-way-admin', tool, id)];
      if (push.kind === 'not-linked') ways.push(say.t('access-way-link-source', tool));
      if (push.kind === 'no-push') ways.push(say.t('access-way-push', push.repo, push.login));
      if (push.kind === 'unavailable' && push.reason) ways.push(say.t('access-way-unchecked', push.reason));
      if (tokenCounts) ways.push(say.t('access-way-deploy-token', tool));
      return {
        message: say.t(level === 'read' ? 'access-maintainers-only-read' : 'access-maintainers-only', tool),
        hint: say.t('access-ways', ways.join(say.t('access-ways-or'))),
      };
    });
  }
}

function idOf(user: ChatUser): string {
  return `${user.platform}:${user.id}`;
}
