/** Watch events as the watchers send them, for announcement tests. */
import type { WatchEvent } from '../../src/core/watch';

/** A build of `mytool` that ended successfully: an event every subscription to builds announces. */
export function buildEnded(id: string): WatchEvent {
  return {
    tool: 'mytool',
    kind: 'build',
    id,
    from: 'BUILD_RUNNING',
    to: 'BUILD_SUCCESS',
    at: Date.now(),
    detail: '',
    outcome: 'success',
    terminal: true,
  };
}
