/** The context of the accounts commands: the part of the services they use. */
import { type AppServices, commandsWith } from '../services';

type Used = 'accounts' | 'toolhost';

/**
 * What the account commands use: linked accounts and the vault, and the tool platform (to
 * check a deploy token).
 */
export type AccountsServices = Pick<AppServices, Used>;

/** `defineCommand` for this group: its commands see {@link AccountsServices} only. */
export const command = commandsWith<Used>();
