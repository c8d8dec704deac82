/** The context of the chat commands: the part of the services they use. */
import { type AppServices, commandsWith } from '../services';

type Used = 'registry';

/**
 * What the conversation commands use: the command catalogue (for /help).
 */
export type ChatServices = Pick<AppServices, Used>;

/** `defineCommand` for this group: its commands see {@link ChatServices} only. */
export const command = commandsWith<Used>();
