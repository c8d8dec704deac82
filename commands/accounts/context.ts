/** The context of the accounts commands: the part of the services they use. */
import { type AppServices, commandsWith } from '../services';

type Used = 'accounts' | 'toolhost' | 'media' | 'calendar';

/**
 * What the account commands use: linked accounts and the vault, and the tool platform, media host
 * and calendar (to check a credential before storing it).
 */
export type AccountsServices = Pick<AppServices, Used>;

/** `defineCommand` for this group: its commands see {@link AccountsServices} only. */
export const command = commandsWith<Used>();
