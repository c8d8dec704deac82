import type { ChatUser, PermissionLevel } from './command';

/** How a check is made. */
export interface PolicyCheckOptions {
  /** The run was approved as an override of a lock or freeze: the change guard is not asked. */
  overridden?: boolean;
}

/** Decides whether a user may run a command at a permission level for a tool. */
export interface Policy {
  /**
   * Resolves when allowed; rejects with a `PermissionDenied` that says what link or role is missing.
   * `tool` is the tool the command acts on, when it has one; `command` its name (e.g. `deploy`).
   */
  check(
    user: ChatUser,
    level: PermissionLevel,
    tool: string | undefined,
    command?: string,
    options?: PolicyCheckOptions,
  ): Promise<void>;
}
