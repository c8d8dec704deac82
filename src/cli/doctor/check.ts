/** One line of `deckhand doctor`: passed, failed (with what to do) or not applicable. */
export interface CheckResult {
  status: 'ok' | 'fail' | 'skip';
  /** What was checked, e.g. `Redis` or `Telegram credentials`. */
  label: string;
  /** What was found; for a failure, the problem and what to do. Never a secret. */
  detail: string;
  /** A check of the configuration alone (a failure there makes doctor exit 2, like `start`). */
  configuration?: boolean;
}

/** A passed check. */
export const ok = (label: string, detail: string): CheckResult => ({ status: 'ok', label, detail });
/** A failed check: `detail` names the problem and the fix. */
export const fail = (label: string, detail: string): CheckResult => ({ status: 'fail', label, detail });
/** A check that does not apply to this configuration. */
export const skip = (label: string, detail: string): CheckResult => ({ status: 'skip', label, detail });

const MARK = { ok: '✓', fail: '✗', skip: '-' } as const;

/** The printed line. */
export function renderCheck(result: CheckResult): string {
  return `${MARK[result.status]} ${result.label}: ${result.detail}`;
}
