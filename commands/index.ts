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
import { calendarInfoCommand } from './calendar';
import { calendarDigestCommand } from './calendar-digest';
import {
  categoriesCreateCommand,
  categoriesListCommand,
  tagsCreateCommand,
  tagsListCommand,
} from './categories';
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
import { eventCancelCommand, eventEditCommand, eventShowCommand, eventUpdateCommand } from './event';
import { eventCreateCommand, eventNewCommand } from './event-create';
import { eventsCommand } from './events';
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
import { ACCOUNT_COMMANDS } from './link-commands';
import { logsCommand } from './logs';
import { MEDIA_COMMANDS } from './media';
import type { AppServices } from './services';
import { subscribeCommand, subscriptionsCommand, unsubscribeCommand } from './subscribe';
import { tailStopCommand } from './tail';
import { tokenCreateCommand, tokenDeleteCommand, tokenRefreshCommand, tokenShowCommand } from './token';
import { toolBindCommand } from './tool-bind';
import { toolStatusCommand } from './tool-status';
import {
  organizersCreateCommand,
  organizersListCommand,
  venuesCreateCommand,
  venuesListCommand,
} from './venues';

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
  eventCreateCommand,
  eventNewCommand,
  eventShowCommand,
  eventUpdateCommand,
  eventCancelCommand,
  eventEditCommand,
  eventsCommand,
  venuesListCommand,
  venuesCreateCommand,
  organizersListCommand,
  organizersCreateCommand,
  categoriesListCommand,
  categoriesCreateCommand,
  tagsListCommand,
  tagsCreateCommand,
  calendarDigestCommand,
  calendarInfoCommand,
  ...MEDIA_COMMANDS,
  ...ACCOUNT_COMMANDS,
  helpCommand,
];

/** The kinds of resources whose cards are kept up to date. */
export const WATCH_KINDS: readonly WatchKind<AppServices>[] = [deploymentWatch, buildWatch, jobWatch];

export { mediaUploadView as MEDIA_UPLOAD_VIEW } from './media';
export type { AppServices } from './services';
export { tailView as TAIL_VIEW } from './tail';
