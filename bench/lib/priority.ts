/**
 * CPU scheduling for the ack benchmark. On this one machine the Deckhand worker, Redis and the fakes
 * (the benchmark process: fake Slack, toolhost sandbox) run beside the web process; in a deployment
 * the web process has CPU of its own (Procfile process types — Redis included — and compose services
 * are separate containers). So the benchmark puts the worker, Redis and the fakes in the background:
 * Linux's SCHED_IDLE policy (sched(7): "for running very low priority background jobs"), set on every
 * thread with `chrt --idle`; a process of the normal policy that wakes up runs before them at once.
 * Nice 10 alone (the earlier set-up) only lowers a background process's share of the CPU; the web
 * process and the load generator still waited behind it, which no deployment does (measured: ack p99
 * 3.5–8.5× bare Bolt in four runs with nice 10, against 1.5–2.4× with SCHED_IDLE, on the same code).
 * Where `chrt` is missing or refused, the background gets nice 10, and the run says so. Children of
 * the benchmark process inherit its policy; putting them back under the normal one needs root or
 * CAP_SYS_NICE — without it every process runs at one priority, and the run says that too.
 * The web process, the bare Bolt app, the one-process Deckhand and the load generator keep the normal
 * policy. The same run also measures with every process at one priority (an info figure).
 */
import { execFileSync } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { Redis } from 'ioredis';

/** The nice value of the background processes where SCHED_IDLE cannot be set. */
export const BACKGROUND_NICE = 10;

/** How the background processes were scheduled in a run. */
export type Placement = 'idle-policy' | 'nice' | 'none';

function setNice(pid: number, nice: number): boolean {
  try {
    setPriority(pid, nice);
    return getPriority(pid) === nice;
  } catch {
    return false;
  }
}

/** Sets the policy of every thread of `pid` (`chrt -a -p`); false when refused or unavailable. */
function setPolicy(pid: number, policy: '--idle' | '--other'): boolean {
  try {
    execFileSync('chrt', ['--all-tasks', policy, '--pid', '0', String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Puts `pid` in the background (SCHED_IDLE, or nice 10); says how. */
export function toBackground(pid: number | undefined): Placement {
  if (pid === undefined) return 'none';
  if (setPolicy(pid, '--idle')) return 'idle-policy';
  return setNice(pid, BACKGROUND_NICE) ? 'nice' : 'none';
}

/** Puts `pid` back in the foreground (the normal policy, nice 0); false when refused. */
export function toForeground(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  const policy = setPolicy(pid, '--other');
  return setNice(pid, 0) && policy;
}

/** The weakest placement of several (a run is only as separated as its least separated process). */
export function weakest(placements: Placement[]): Placement {
  if (placements.includes('none')) return 'none';
  return placements.includes('nice') ? 'nice' : 'idle-policy';
}

/** One line about how a run placed its processes. */
export function describePlacement(placement: Placement): string {
  switch (placement) {
    case 'idle-policy':
      return 'scheduling: the worker, Redis and the fakes under SCHED_IDLE (chrt --idle); web, bare Bolt, one process and the load generator under the normal policy (bench/lib/priority.ts)';
    case 'nice':
      return `scheduling: chrt was not available: the worker, Redis and the fakes at nice ${BACKGROUND_NICE}, the rest at 0 (a weaker separation: see bench/lib/priority.ts)`;
    case 'none':
      return 'scheduling: priorities could not be set here: every process ran at one priority';
  }
}

/** The process id of the Redis server at `url` (from `INFO server`). */
export async function redisPid(url: string): Promise<number | undefined> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const pid = /process_id:(\d+)/.exec(await redis.info('server'))?.[1];
    return pid ? Number(pid) : undefined;
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}
