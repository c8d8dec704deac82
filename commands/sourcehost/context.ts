/** The context of the sourcehost commands: the part of the services they use. */
import { type AppServices, commandsWith } from '../services';

type Used = 'accounts';

/**
 * What the source-host commands use: linked accounts (the source host client, the vault,
 * the import followers).
 */
export type SourcehostServices = Pick<AppServices, Used>;

/** `defineCommand` for this group: its commands see {@link SourcehostServices} only. */
export const command = commandsWith<Used>();
