/**
 * CPU priorities for the ack benchmark. On this one machine the Deckhand worker, Redis and the fakes
 * (the benchmark process: fake Slack, toolhost sandbox) run beside the web process; in a deployment
 * the web process has CPU of its own (Procfile process types — Redis included — and compose services
 * are separate containers). So the benchmark runs the worker, Redis and the fakes at a lower priority
 * (nice 10) and the web process, the bare Bolt app and the load generator at the normal one: the acks are not timed behind work no deployment puts on the web
 * process's CPU. The same run also measures with every process at one priority (an info figure).
 */
import { getPriority, setPriority } from 'node:os';
import { Redis } from 'ioredis';

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
