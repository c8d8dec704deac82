/** The context of the media commands: the part of the services they use. */
import { type AppServices, commandsWith } from '../services';

type Used = 'media' | 'uploads';

/**
 * What the media commands use: the media host client per user, and the upload queue.
 */
export type MediaServices = Pick<AppServices, Used>;

/** `defineCommand` for this group: its commands see {@link MediaServices} only. */
export const command = commandsWith<Used>();
