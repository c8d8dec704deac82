import type { AnyCommand } from '../src/core/command';
import type { LinkRecogniser } from '../src/core/unfurls';
import type { WatchKind } from '../src/core/watch';
import { accountsHomeSection } from './accounts/home-accounts';
import { calendarInfoCommand } from './calendar/calendar';
import { calendarDigestCommand } from './calendar/calendar-digest';
import {
  categoriesCreateCommand,
  categoriesListCommand,
  tagsCreateCommand,
  tagsListCommand,
} from './calendar/categories';
import { eventCancelCommand, eventEditCommand, eventShowCommand, eventUpdateCommand } from './calendar/event';
import { eventCreateCommand, eventNewCommand } from './calendar/event-create';
import { eventsCommand } from './calendar/events';
import {
  organizersDeleteCommand,
  organizersUpdateCommand,
  venuesDeleteCommand,
  venuesUpdateCommand,
} from './calendar/linked-edit';
import {
  categoriesDeleteCommand,
  categoriesUpdateCommand,
  tagsDeleteCommand,
  tagsUpdateCommand,
} from './calendar/terms-edit';
import {
  organizersCreateCommand,
  organizersListCommand,
  venuesCreateCommand,
  venuesListCommand,
} from './calendar/venues';
import { helpCommand } from './chat/help';
import { languageCommand } from './chat/language';
import { notifyCommand, notifyHomeSection } from './chat/notify';
import { timezoneCommand } from './chat/timezone';
import { type HomeSections, homeCommand } from './home';
import { ACCOUNT_COMMANDS } from './link-commands';
import { MEDIA_COMMANDS } from './media/media';
import { phabricatorLinks, taskCommand } from './phabricator/task';
import type { AppServices } from './services';
import { sourcehostLinks } from './sourcehost/source-refs';
import { TEAM_COMMANDS } from './team/commands';
import { approvalsHomeSection, claimsHomeSection, locksHomeSection } from './team/home-team';
import {
  buildCancelCommand,
  buildDeleteCommand,
  buildLatestCommand,
  buildListCommand,
  buildShowCommand,
  buildStartCommand,
} from './toolhost/build';
import { buildWatch } from './toolhost/build-card';
import { buildCleanCommand, buildLogsCommand, buildQuotaCommand } from './toolhost/build-extra';
import { configDeleteCommand, configGenerateCommand, configShowCommand } from './toolhost/config';
import { configDumpCommand, configSetCommand } from './toolhost/config-set';
import { deployCommand } from './toolhost/deploy';
import {
  deploymentCancelCommand,
  deploymentDeleteCommand,
  deploymentListCommand,
  deploymentShowCommand,
} from './toolhost/deployment';
import { deploymentWatch } from './toolhost/deployment-card';
import {
  envvarsDeleteCommand,
  envvarsListCommand,
  envvarsQuotaCommand,
  envvarsSetCommand,
  envvarsShowCommand,
} from './toolhost/envvars';
import { toolsHomeSection } from './toolhost/home-tools';
import { jobWatch } from './toolhost/job-card';
import {
  jobsDeleteCommand,
  jobsFlushCommand,
  jobsImagesCommand,
  jobsListCommand,
  jobsQuotaCommand,
  jobsRestartCommand,
  jobsShowCommand,
} from './toolhost/jobs';
import { jobsDumpCommand, jobsLoadCommand } from './toolhost/jobs-load';
import { jobsRunCommand } from './toolhost/jobs-run';
import { jobsUpdateCommand } from './toolhost/jobs-update';
import { toolhostLinks } from './toolhost/links';
import { logsCommand } from './toolhost/logs';
import { deployRollbackCommand, deployUnpinCommand } from './toolhost/rollback';
import { toolSalCommand } from './toolhost/sal/command';
import { subscribeCommand, subscriptionsCommand, unsubscribeCommand } from './toolhost/subscribe';
import { tailStopCommand } from './toolhost/tail';
import {
  tokenCreateCommand,
  tokenDeleteCommand,
  tokenRefreshCommand,
  tokenShowCommand,
} from './toolhost/token';
import { toolBindCommand, toolUnbindCommand } from './toolhost/tool-bind';
import { toolStatusCommand } from './toolhost/tool-status';
import { WEBSERVICE_COMMANDS } from './toolhost/webservice';
import { webserviceWatch } from './toolhost/webservice-card';

/**
 * The parts of `/me` (and of a platform's own home screen), each from its own feature; personal notification
 * settings take their place as `notificationSettings` once that feature provides its section.
 */
export const HOME_SECTIONS: HomeSections = {
  tools: toolsHomeSection,
  accounts: accountsHomeSection,
  locks: locksHomeSection,
  approvals: approvalsHomeSection,
  claims: claimsHomeSection,
  notificationSettings: notifyHomeSection,
};

/** Every command, in the order help lists them. */
export const ALL_COMMANDS: readonly AnyCommand<AppServices>[] = [
  deployCommand,
  deployRollbackCommand,
  deployUnpinCommand,
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
  configSetCommand,
  configDumpCommand,
  tokenShowCommand,
  tokenCreateCommand,
  tokenRefreshCommand,
  tokenDeleteCommand,
  jobsListCommand,
  jobsShowCommand,
  jobsRunCommand,
  jobsUpdateCommand,
  jobsDumpCommand,
  jobsLoadCommand,
  jobsRestartCommand,
  jobsDeleteCommand,
  jobsFlushCommand,
  jobsImagesCommand,
  jobsQuotaCommand,
  logsCommand,
  ...WEBSERVICE_COMMANDS,
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
  toolUnbindCommand,
  ...TEAM_COMMANDS,
  toolSalCommand,
  eventCreateCommand,
  eventNewCommand,
  eventShowCommand,
  eventUpdateCommand,
  eventCancelCommand,
  eventEditCommand,
  eventsCommand,
  venuesListCommand,
  venuesCreateCommand,
  venuesUpdateCommand,
  venuesDeleteCommand,
  organizersListCommand,
  organizersCreateCommand,
  organizersUpdateCommand,
  organizersDeleteCommand,
  categoriesListCommand,
  categoriesCreateCommand,
  categoriesUpdateCommand,
  categoriesDeleteCommand,
  tagsListCommand,
  tagsCreateCommand,
  tagsUpdateCommand,
  tagsDeleteCommand,
  calendarDigestCommand,
  calendarInfoCommand,
  ...MEDIA_COMMANDS,
  ...ACCOUNT_COMMANDS,
  homeCommand(HOME_SECTIONS),
  timezoneCommand,
  notifyCommand,
  languageCommand,
  helpCommand,
  taskCommand,
];

/** The kinds of resources whose cards are kept up to date. */
export const WATCH_KINDS: readonly WatchKind<AppServices>[] = [
  deploymentWatch,
  buildWatch,
  jobWatch,
  webserviceWatch,
];

export { HOME_LINE } from './home';
export { mediaUploadView as MEDIA_UPLOAD_VIEW } from './media/media';
export type { AppServices } from './services';
export { tailView as TAIL_VIEW } from './toolhost/tail';

/** What each service's commands recognise in a posted message (link unfurls). */
export const LINK_RECOGNISERS: readonly LinkRecogniser[] = [toolhostLinks, phabricatorLinks, sourcehostLinks];
