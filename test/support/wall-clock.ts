/**
 * Wall-clock time in milliseconds with a fraction (`Date.now()` has whole milliseconds only): the
 * process's time origin plus its monotonic clock. Comparable across processes on one machine: each
 * origin is read from the system clock at start-up, and both clocks advance at the rate NTP sets —
 * only a step of the system clock (none during a benchmark run) would shift one against the other.
 * Used where a few milliseconds are measured between two processes (command → first reply).
 */
export function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}
