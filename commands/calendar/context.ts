/** The context of the calendar commands: the part of the services they use. */
import { type AppServices, commandsWith } from '../services';

type Used = 'calendar' | 'digests';

/**
 * What the calendar commands use: the calendar client per user, and the digest schedule.
 */
export type CalendarServices = Pick<AppServices, Used>;

/** `defineCommand` for this group: its commands see {@link CalendarServices} only. */
export const command = commandsWith<Used>();
