/** The team commands: tool locks, weekly freeze windows, protect policies and claimed failures. */
import { toolClaimCommand, toolHandoffCommand, toolReleaseCommand } from './claim';
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
  toolClaimCommand,
  toolHandoffCommand,
  toolReleaseCommand,
];
