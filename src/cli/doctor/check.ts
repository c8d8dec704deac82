import type { CheckResult } from '../../wiring/doctor-kit';

export { type CheckResult, fail, ok, skip } from '../../wiring/doctor-kit';

const MARK = { ok: '✓', fail: '✗', skip: '-' } as const;

/** The printed line. */
export function renderCheck(result: CheckResult): string {
  return `${MARK[result.status]} ${result.label}: ${result.detail}`;
}
