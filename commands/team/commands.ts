/** The team commands: tool locks and weekly freeze windows. */
import { toolFreezeCommand, toolFreezesCommand, toolUnfreezeCommand } from './freeze';
import { toolLockCommand, toolUnlockCommand } from './lock';

/** Every team command, in the order help lists them. */
export const TEAM_COMMANDS = [
  toolLockCommand,
  toolUnlockCommand,
  toolFreezeCommand,
  toolFreezesCommand,
  toolUnfreezeCommand,
];
