import type { AnyCommand } from '../src/core/command';
import { auditCommand } from './accounts/audit';
import { linkCalendarCommand, linkMediaCommand, linkToolCommand } from './accounts/link';
import { unlinkCommand } from './accounts/unlink';
import { whoamiCommand } from './accounts/whoami';
import type { AppServices } from './services';
import { linkSourceCommand } from './sourcehost/link-source';
import { sourceRatelimitCommand } from './sourcehost/source';
import {
  importAuthorsCommand,
  importCancelCommand,
  importFollowCommand,
  importLargeFilesCommand,
  importLfsCommand,
  importMapAuthorCommand,
  importStatusCommand,
  importUnfollowCommand,
} from './sourcehost/source-import';
import {
  migrationArchiveCommand,
  migrationDeleteArchiveCommand,
  migrationListCommand,
  migrationReposCommand,
  migrationShowCommand,
  migrationStartCommand,
  migrationUnlockCommand,
} from './sourcehost/source-migration';
import { sourceCommitCommand, sourcePullCommand } from './sourcehost/source-refs';

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
  sourceCommitCommand,
  sourcePullCommand,
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
