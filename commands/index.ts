import type { AnyCommand } from '../src/core/command';
import type { WatchKind } from '../src/core/watch';
import {
  buildCancelCommand,
  buildDeleteCommand,
  buildLatestCommand,
  buildListCommand,
  buildShowCommand,
  buildStartCommand,
} from './build';
import { buildWatch } from './build-card';
import { buildCleanCommand, buildLogsCommand, buildQuotaCommand } from './build-extra';
import { configDeleteCommand, configGenerateCommand, configShowCommand } from './config';
import { deployCommand } from './deploy';
import {
  deploymentCancelCommand,
  deploymentDeleteCommand,
  deploymentListCommand,
  deploymentShowCommand,
} from './deployment';
import { deploymentWatch } from './deployment-card';
import { helpCommand } from './help';
import type { AppServices } from './services';
import { tokenCreateCommand, tokenDeleteCommand, tokenRefreshCommand, tokenShowCommand } from './token';
import { toolBindCommand } from './tool-bind';

/** Every command, in the order help lists them. */
export const ALL_COMMANDS: readonly AnyCommand<AppServices>[] = [
  deployCommand,
  deploymentListCommand,
  deploymentShowCommand,
  deploymentCancelCommand,
  deploymentDeleteCommand,
  buildStartCommand,
  buildListCommand,
  buildShowCommand,
  buildLatestCommand,
  buildLogsCommand,
  buildCancelCommand,
  buildDeleteCommand,
  buildCleanCommand,
  buildQuotaCommand,
  configShowCommand,
  configGenerateCommand,
  configDeleteCommand,
  tokenShowCommand,
  tokenCreateCommand,
  tokenRefreshCommand,
  tokenDeleteCommand,
  toolBindCommand,
  helpCommand,
];

/** The kinds of resources whose cards are kept up to date. */
export const WATCH_KINDS: readonly WatchKind<AppServices>[] = [deploymentWatch, buildWatch];

export type { AppServices } from './services';
