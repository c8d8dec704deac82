import type { LogEntry } from '../../src/services/toolhost';

/** `HH:MM:SS pod  message`: one log entry as a chat line. */
export function formatLogEntry(entry: LogEntry): string {
  const time = /T(\d{2}:\d{2}:\d{2})/.exec(entry.datetime)?.[1] ?? entry.datetime;
  return `${time} ${entry.pod ? `${entry.pod} ` : ''}${entry.message}`;
}
