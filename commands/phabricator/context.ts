/** The context of the Phabricator commands: the part of the services they use. */
import { type AppServices, commandsWith } from '../services';

type Used = 'config';

/** What the Phabricator commands use: the configuration (`PHABRICATOR_URL`, `PHABRICATOR_TOKEN`). */
export type PhabricatorServices = Pick<AppServices, Used>;

/** `defineCommand` for this group: its commands see {@link PhabricatorServices} only. */
export const command = commandsWith<Used>();
