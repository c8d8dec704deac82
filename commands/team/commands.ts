/** The team commands: tool locks, weekly freeze windows and protect policies. */
import { toolFreezeCommand, toolFreezesCommand, toolUnfreezeCommand } from './freeze';
import { toolLockCommand, toolUnlockCommand } from './lock';
import { toolProtectCommand, toolUnprotectCommand } from './protect';

/** Every team command, in the order help lists them. */
export const TEAM_COMMANDS = [
  toolLockCommand,
  toolUnlockCommand,
  toolFreezeCommand,
  toolFreezesCommand,
  toolUnfreezeCommand,
  toolProtectCommand,
  toolUnprotectCommand,
];
