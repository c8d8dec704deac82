import type { AnyCommand } from '../src/core/command';
import { auditCommand } from './audit';
import { linkCalendarCommand, linkMediaCommand, linkSourceCommand, linkToolCommand } from './link';
import type { AppServices } from './services';
import { sourceRatelimitCommand } from './source';
import {
  importAuthorsCommand,
  importCancelCommand,
  importFollowCommand,
  importLargeFilesCommand,
  importLfsCommand,
  importMapAuthorCommand,
  importStatusCommand,
  importUnfollowCommand,
} from './source-import';
import {
  migrationArchiveCommand,
  migrationDeleteArchiveCommand,
  migrationListCommand,
  migrationReposCommand,
  migrationShowCommand,
  migrationStartCommand,
  migrationUnlockCommand,
} from './source-migration';
import { unlinkCommand } from './unlink';
import { whoamiCommand } from './whoami';

/** The account, audit and source-host commands, in the order help lists them. */
export const ACCOUNT_COMMANDS: readonly AnyCommand<AppServices>[] = [
  linkSourceCommand,
  linkToolCommand,
  linkMediaCommand,
  linkCalendarCommand,
  unlinkCommand,
  whoamiCommand,
  auditCommand,
  sourceRatelimitCommand,
  migrationStartCommand,
  migrationListCommand,
  migrationShowCommand,
  migrationReposCommand,
  migrationArchiveCommand,
  migrationDeleteArchiveCommand,
  migrationUnlockCommand,
  importStatusCommand,
  importAuthorsCommand,
  importMapAuthorCommand,
  importLargeFilesCommand,
  importLfsCommand,
  importCancelCommand,
  importFollowCommand,
  importUnfollowCommand,
];
