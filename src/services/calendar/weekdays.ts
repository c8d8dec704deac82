/** Weekday names as cron day numbers (0 = Sunday), for weekly calendar digests. */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
