/**
 * CPU priorities for the ack benchmark. On this one machine the Deckhand worker and the fakes (the
 * benchmark process: fake Slack, toolhost sandbox) run beside the web process; in a deployment the
 * web process has CPU of its own (Procfile process types and compose services are separate
 * containers). So the benchmark runs the worker and the fakes at a lower priority (nice 10) and the
 * web process, the bare Bolt app, Redis (which the web process uses too) and the load generator at
 * the normal one: the acks are not timed behind work no deployment puts on the web
 * process's CPU. The same run also measures with every process at one priority (an info figure).
 */
import { getPriority, setPriority } from 'node:os';

/** The nice value of the background processes. */
export const BACKGROUND_NICE = 10;

/** Sets the nice value of `pid` (0 = this process); false when the system refused it. */
export function setNice(pid: number | undefined, nice: number): boolean {
  if (pid === undefined) return false;
  try {
    setPriority(pid, nice);
    return getPriority(pid) === nice;
  } catch {
    return false;
  }
}
