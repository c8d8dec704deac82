/** The context of the team commands (locks, freeze windows, protect policies): the part of the services they use. */
import { type AppServices, commandsWith } from '../services';

type Used = 'accounts' | 'timeZones' | 'registry';

/**
 * What the team commands use: the accounts (the lock and freeze store, `accounts.guards`) and the
 * conversations' time zones (a freeze window's default zone, lock times), and the command registry
 * (which commands a protect policy can name).
 */
export type TeamServices = Pick<AppServices, Used>;

/** `defineCommand` for this group: its commands see {@link TeamServices} only. */
export const command = commandsWith<Used>();
