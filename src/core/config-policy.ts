import type { ChatUser, PermissionLevel } from './command';
import { PermissionDenied } from './errors';
import type { Policy } from './policy';

/** Who is who, from configuration. */
export interface PolicyConfig {
  /** `platform:userId` entries. */
  admins: readonly string[];
  /** `tool=platform:userId` entries. */
  maintainers: readonly string[];
}

/**
 * The configured policy: read commands are open to everyone in the conversation; write commands need
 * a maintainer of the tool (or an admin); admin commands need an admin.
 */
export class ConfigPolicy implements Policy {
  private readonly admins: Set<string>;
  private readonly maintainers = new Map<string, Set<string>>();

  constructor(config: PolicyConfig) {
    this.admins = new Set(config.admins);
    for (const entry of config.maintainers) {
      const [tool, who] = entry.split('=') as [string, string];
      const set = this.maintainers.get(tool) ?? new Set<string>();
      set.add(who);
      this.maintainers.set(tool, set);
    }
  }

  async check(user: ChatUser, level: PermissionLevel, tool: string | undefined): Promise<void> {
    if (level === 'read') return;
    const id = `${user.platform}:${user.id}`;
    if (this.admins.has(id)) return;
    if (level === 'write' && tool && this.maintainers.get(tool)?.has(id)) return;
    if (level === 'admin' || !tool) {
      throw new PermissionDenied('Only Deckhand admins can do that.', `Ask an admin to add ${id} to ADMINS.`);
    }
    throw new PermissionDenied(
      `Only maintainers of ${tool} can do that.`,
      `Ask an admin to add ${tool}=${id} to TOOL_MAINTAINERS.`,
    );
  }
}
