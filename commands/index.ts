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
import {
  envvarsDeleteCommand,
  envvarsListCommand,
  envvarsQuotaCommand,
  envvarsSetCommand,
  envvarsShowCommand,
} from './envvars';
import { helpCommand } from './help';
import { jobWatch } from './job-card';
import {
  jobsDeleteCommand,
  jobsFlushCommand,
  jobsImagesCommand,
  jobsListCommand,
  jobsQuotaCommand,
  jobsRestartCommand,
  jobsShowCommand,
} from './jobs';
import { jobsRunCommand } from './jobs-run';
import { logsCommand } from './logs';
import type { AppServices } from './services';
import { subscribeCommand, subscriptionsCommand, unsubscribeCommand } from './subscribe';
import { tailStopCommand } from './tail';
import { tokenCreateCommand, tokenDeleteCommand, tokenRefreshCommand, tokenShowCommand } from './token';
import { toolBindCommand } from './tool-bind';
import { toolStatusCommand } from './tool-status';

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
  jobsListCommand,
  jobsShowCommand,
  jobsRunCommand,
  jobsRestartCommand,
  jobsDeleteCommand,
  jobsFlushCommand,
  jobsImagesCommand,
  jobsQuotaCommand,
  logsCommand,
  envvarsListCommand,
  envvarsShowCommand,
  envvarsSetCommand,
  envvarsDeleteCommand,
  envvarsQuotaCommand,
  toolStatusCommand,
  subscribeCommand,
  unsubscribeCommand,
  subscriptionsCommand,
  tailStopCommand,
  toolBindCommand,
  helpCommand,
];

/** The kinds of resources whose cards are kept up to date. */
export const WATCH_KINDS: readonly WatchKind<AppServices>[] = [deploymentWatch, buildWatch, jobWatch];

export type { AppServices } from './services';
export { tailView as TAIL_VIEW } from './tail';
