/**
 * Paging of the logs API's `GET …/logs` (seeds/000): one answer holds at most {@link LOGS_PAGE_SIZE}
 * entries (Loki's per-query entry limit); when it holds fewer than `lines` asked for (0 = all) and
 * more exist, `data.next.url` repeats the query from where this page stopped:
 *
 * - `oldest_first`: `since` = time of the last entry sent, `bucket_offset` = how many entries at that
 *   exact time were sent already (so entries sharing a timestamp are neither lost nor repeated);
 * - `newest_first`: the same with `until` (the page walks back in time), and `since` pinned to the
 *   absolute time of the first page so the window does not slide;
 * - `lines` = what is still wanted (stays 0 for "all").
 */
import { formatTime, type LogsQuery } from './logs-query';
import type { StoredLogLine } from './logs-store';

/** Entries per answer. */
export const LOGS_PAGE_SIZE = 5000;

/** One page and, when more exist, the query parameters of the next one. */
export interface LogsPage {
  entries: StoredLogLine[];
  next?: Record<string, string>;
}

/** Cuts one page out of `inRange` (every entry with `since <= time <= until`, oldest first). */
export function pageOf(
  inRange: readonly StoredLogLine[],
  query: LogsQuery,
  pageSize = LOGS_PAGE_SIZE,
): LogsPage {
  const wanted = query.lines > 0 ? query.lines : Number.POSITIVE_INFINITY;
  const limit = Math.min(wanted, pageSize);
  const oldestFirst = query.direction === 'oldest_first';
  // Entries at the cursor's own timestamp that earlier pages already sent.
  const cursorTime = oldestFirst ? query.since : query.until;
  let skip = 0;
  if (oldestFirst) {
    while (skip < query.bucketOffset && inRange[skip]?.time === cursorTime) skip += 1;
  } else {
    while (skip < query.bucketOffset && inRange[inRange.length - 1 - skip]?.time === cursorTime) skip += 1;
  }
  const available = inRange.length - skip;
  const entries = oldestFirst
    ? inRange.slice(skip, skip + limit)
    : inRange.slice(Math.max(0, inRange.length - skip - limit), inRange.length - skip).reverse();
  const more = available > entries.length;
  const last = entries[entries.length - 1];
  if (!more || entries.length >= wanted || !last) return { entries };

  let sameTime = entries.filter((e) => e.time === last.time).length;
  if (last.time === cursorTime) sameTime += skip;
  const next: Record<string, string> = {
    lines: String(query.lines > 0 ? query.lines - entries.length : 0),
    direction: query.direction,
    bucket_offset: String(sameTime),
  };
  if (oldestFirst) {
    next.since = formatTime(last.time);
  } else {
    next.since = formatTime(query.since);
    next.until = formatTime(last.time);
  }
  return { entries, next };
}
