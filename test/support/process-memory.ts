import { readFileSync } from 'node:fs';

/** Resident set size and its peak (VmHWM) of a process, in bytes (NaN where there is no /proc). */
export function memoryOf(pid: number | undefined): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) =>
      Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { rss: Number.NaN, peak: Number.NaN };
  }
}
